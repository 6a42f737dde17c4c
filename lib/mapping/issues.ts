import type { IssueSeverity, MappingIssue } from "./mapping-types";

// Long source values are cut so that an issue list stays readable.
const maxOriginalLength = 80;

/** The source value as an issue shows it: cut to a readable length, null stays null. */
export function shownOriginal(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const characters = Array.from(value);
  return characters.length <= maxOriginalLength ? value : `${characters.slice(0, maxOriginalLength).join("")}…`;
}

function issueOf(severity: IssueSeverity, field: string, code: string, reason: string, original: string | null): MappingIssue {
  return { severity, field, code, reason, original };
}

/** The field was dropped or normalised; the record is still sent. */
export function warningIssue(field: string, code: string, reason: string, original: string | null): MappingIssue {
  return issueOf("warning", field, code, reason, original);
}

/** The record is excluded and never sent. */
export function errorIssue(field: string, code: string, reason: string, original: string | null): MappingIssue {
  return issueOf("error", field, code, reason, original);
}

export function hasError(issues: readonly MappingIssue[]): boolean {
  for (const issue of issues) if (issue.severity === "error") return true;
  return false;
}
