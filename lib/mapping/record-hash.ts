import { hash } from "node:crypto";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Objects with their keys sorted at every depth; undefined properties left out, as JSON.stringify does. Copied key by
// key: objects of one shape then share V8's hidden class, which JSON.stringify serialises on its fast path.
function canonicalOf(value: unknown): Json {
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : canonicalOf(element)));
  if (value !== null && typeof value === "object") {
    const canonical: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const element = (value as Record<string, unknown>)[key];
      if (element === undefined) continue;
      const copy = typeof element === "object" ? canonicalOf(element) : (element as Json);
      // Assigning __proto__ would set the prototype; an own property of that name is defined instead.
      if (key === "__proto__") Object.defineProperty(canonical, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else canonical[key] = copy;
    }
    return canonical;
  }
  return value as Json;
}

/**
 * Whether the object is its own canonical form: a plain object, flat (string, number, boolean or null values), its keys in
 * ascending order. The mappers build appointment and contact records so (lib/mapping/map-appointment.ts,
 * map-customer.ts): copying them cost more than hashing them.
 */
function isCanonicalFlat(record: object): boolean {
  // A plain object: an array, a boxed value, a Date or a Map serialise otherwise than their own keys.
  const prototype = Object.getPrototypeOf(record);
  if (prototype !== Object.prototype && prototype !== null) return false;
  let previous: string | null = null;
  for (const key in record) {
    const value = (record as Record<string, unknown>)[key];
    const type = typeof value;
    if (value !== null && type !== "string" && type !== "number" && type !== "boolean") return false;
    if (previous !== null && !(previous < key)) return false;
    previous = key;
  }
  return true;
}

/** The value's JSON with the keys of every object in ascending order and undefined properties left out. */
export function canonicalJson(value: object): string {
  return JSON.stringify(isCanonicalFlat(value) ? value : canonicalOf(value));
}

/** The hash of a record whose canonical JSON is `json` (canonicalJson). */
export function hashOfJson(json: string): string {
  return hash("sha256", json, "hex");
}

/** sha256 (hex) of the record's canonical JSON: equal records hash equal whatever their key order, in every run. */
export function recordHash(record: object): string {
  return hashOfJson(canonicalJson(record));
}
