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

/** sha256 (hex) of the record's canonical JSON: equal records hash equal whatever their key order, in every run. */
export function recordHash(record: object): string {
  return hash("sha256", JSON.stringify(canonicalOf(record)), "hex");
}
