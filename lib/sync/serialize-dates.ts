/** A row as JSON carries it: every Date becomes its ISO string (so server pages and polling clients share one type). */
export type Serialized<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

export function serializeDates<T extends object>(row: T): Serialized<T> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])) as Serialized<T>;
}
