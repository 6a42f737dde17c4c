import type { MappingIssue } from "../mapping-types";

/** A normalised source value: undefined when the field is omitted (empty, or dropped for a reason in `issues`). */
export interface Normalised<T> {
  value: T | undefined;
  issues: MappingIssue[];
}

export function normalised<T>(value: T | undefined, ...issues: MappingIssue[]): Normalised<T> {
  return { value, issues };
}
