import { createHash } from "node:crypto";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Objects with their keys sorted at every depth; undefined properties left out, as JSON.stringify does.
function canonicalOf(value: unknown): Json {
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : canonicalOf(element)));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, element]) => element !== undefined)
      .sort(([first], [second]) => (first < second ? -1 : first > second ? 1 : 0));
    return Object.fromEntries(entries.map(([key, element]) => [key, canonicalOf(element)]));
  }
  return value as Json;
}

/** sha256 (hex) of the record's canonical JSON: equal records hash equal whatever their key order, in every run. */
export function recordHash(record: object): string {
  return createHash("sha256").update(JSON.stringify(canonicalOf(record))).digest("hex");
}
