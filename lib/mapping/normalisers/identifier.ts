import { errorIssue, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

/** A source id as an external id: trimmed; empty → undefined. */
export function normaliseIdentifier(value: string | null | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const identifier = value.trim();
  return identifier === "" ? undefined : identifier;
}

/** The row's own id, required: without it the record cannot be named upstream. */
export function requireExternalId(value: string | null | undefined): Normalised<string> {
  const identifier = normaliseIdentifier(value);
  if (identifier !== undefined) return normalised(identifier);
  return normalised<string>(undefined, errorIssue("external_id", "missing_id", "is missing", typeof value === "string" ? value : null));
}

/** A required reference to another record (e.g. an appointment's customer): missing → error. */
export function requireReference(value: string | null | undefined, field: string): Normalised<string> {
  const identifier = normaliseIdentifier(value);
  if (identifier !== undefined) return normalised(identifier);
  return normalised<string>(undefined, errorIssue(field, "missing_reference", "is missing", typeof value === "string" ? value : null));
}

/**
 * A reference the record can be sent without (an appointment's calendar or service): missing → a warning, and the
 * field is left out. Visit history is kept when the stylist or the service is gone from the source row.
 */
export function optionalReference(value: string | null | undefined, field: string): Normalised<string> {
  const identifier = normaliseIdentifier(value);
  if (identifier !== undefined) return normalised(identifier);
  return normalised<string>(
    undefined,
    warningIssue(field, "missing_reference", "is missing: sent without it", typeof value === "string" ? value : null),
  );
}
