import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { withoutUndefined } from "./mapped-row";
import { recordHash } from "./record-hash";

// The implementations before they copied key by key, as they were: the references.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function entriesCanonicalOf(value: unknown): Json {
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : entriesCanonicalOf(element)));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, element]) => element !== undefined)
      .sort(([first], [second]) => (first < second ? -1 : first > second ? 1 : 0));
    return Object.fromEntries(entries.map(([key, element]) => [key, entriesCanonicalOf(element)]));
  }
  return value as Json;
}

function entriesRecordHash(record: object): string {
  return createHash("sha256")
    .update(JSON.stringify(entriesCanonicalOf(record)))
    .digest("hex");
}

function entriesWithoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/** What a call returns, or the kind of error it throws. */
function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

// Keys that order or behave specially: integer-like ones come first in an object, __proto__ and toJSON are special.
const key = fc.oneof(
  fc.string(),
  fc.constantFrom("__proto__", "toJSON", "constructor", "10", "2", "01", "4294967295", "-1", "a", "B", "é", "\u{1F600}"),
);
const anyValue = fc.anything({
  key,
  maxDepth: 3,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withUnicodeString: true,
});
const withUndefined = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 3 });
// Records as the mapping builds them: flat, a few optional fields, now and then a list of ids.
const mappedRecord = fc.record(
  {
    external_id: fc.string({ minLength: 1 }),
    name: withUndefined(fc.string()),
    price_cents: withUndefined(fc.integer()),
    available: withUndefined(fc.boolean()),
    calendar_external_ids: withUndefined(fc.array(fc.string())),
    year: withUndefined(fc.oneof(fc.integer(), fc.double())),
  },
  { requiredKeys: ["external_id"] },
);
const byKey = ([first]: [string, unknown], [second]: [string, unknown]) => (first < second ? -1 : first > second ? 1 : 0);
// Flat records built with their keys in ascending order, as the appointment and contact mappings build theirs (the
// short cut that hashes such a record without copying it), some with a null prototype.
const sortedFlatRecord = fc
  .tuple(fc.dictionary(key, fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined))), fc.boolean())
  .map(([record, bare]) => Object.assign(bare ? Object.create(null) : {}, Object.fromEntries(Object.entries(record).sort(byKey))) as object);
const anyRecord = fc.oneof(
  mappedRecord,
  sortedFlatRecord,
  fc.dictionary(key, withUndefined(anyValue)),
  fc.array(withUndefined(anyValue)),
  anyValue.filter((value) => typeof value === "object" && value !== null),
);

describe("recordHash hashes what the entries-based version hashed", () => {
  test("for mapped records and for any value at all", () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        expect(outcome(() => recordHash(record as object))).toEqual(outcome(() => entriesRecordHash(record as object)));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("withoutUndefined drops what the entries-based version dropped", () => {
  test("same keys in the same order, same values", () => {
    fc.assert(
      fc.property(fc.oneof(mappedRecord, fc.dictionary(key, withUndefined(anyValue))), (record) => {
        const defined = withoutUndefined(record);
        const reference = entriesWithoutUndefined(record);
        expect(Reflect.ownKeys(defined)).toEqual(Reflect.ownKeys(reference));
        expect(Object.getPrototypeOf(defined)).toBe(Object.getPrototypeOf(reference));
        for (const name of Reflect.ownKeys(reference))
          expect(Object.getOwnPropertyDescriptor(defined, name)).toEqual(Object.getOwnPropertyDescriptor(reference, name));
      }),
      { numRuns: 3000 },
    );
  });
});
