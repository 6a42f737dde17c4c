import type { MappingIssue } from "../mapping-types";

/** A normalised source value: undefined when the field is omitted (empty, or dropped for a reason in `issues`). */
export interface Normalised<T> {
  value: T | undefined;
  issues: MappingIssue[];
}

export function normalised<T>(value: T | undefined, ...issues: MappingIssue[]): Normalised<T> {
  return { value, issues };
}

/** The issues of several normalised values, in their order, in a new list (most values have none). */
export function issuesOf(...values: Normalised<unknown>[]): MappingIssue[] {
  const issues: MappingIssue[] = [];
  for (const { issues: own } of values) if (own.length > 0) issues.push(...own);
  return issues;
}
