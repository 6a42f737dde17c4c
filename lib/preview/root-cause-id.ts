import { z } from "zod";
import { findUnstorableCharacter } from "@/lib/validation/safe-text";
import { previewRecordTypes, type PreviewRecordType } from "./preview-plan";

/**
 * What a group of issues goes back to: a record the source does not have (`missing`), an issue the mapping or a
 * duplicate check found on records of one type (`issue`), or a rule that excluded records others name (`excluded`).
 */
export type RootCauseOrigin =
  | { kind: "missing"; type: PreviewRecordType; key: string }
  | { kind: "issue"; type: PreviewRecordType; severity: string; field: string; code: string }
  | { kind: "excluded"; type: PreviewRecordType; reason: string };

const part = encodeURIComponent;

/** The cause as one URL parameter value (`cause=`): its parts joined by ":", each percent-encoded. */
export function rootCauseIdOf(origin: RootCauseOrigin): string {
  switch (origin.kind) {
    case "missing":
      return ["missing", origin.type, part(origin.key)].join(":");
    case "issue":
      return ["issue", origin.type, part(origin.severity), part(origin.field), part(origin.code)].join(":");
    case "excluded":
      return ["excluded", origin.type, part(origin.reason)].join(":");
  }
}

const isRecordType = (value: string | undefined): value is PreviewRecordType => previewRecordTypes.includes(value as PreviewRecordType);

/** The cause a `cause=` value names, or null when it names none. */
export function rootCauseOriginOf(id: string): RootCauseOrigin | null {
  const [kind, type, ...rest] = id.split(":");
  if (!isRecordType(type)) return null;
  try {
    const parts = rest.map(decodeURIComponent);
    // Decoded, a part may hold what the raw parameter could not (a NUL as %00): no cause names such text.
    if (parts.some((decoded) => findUnstorableCharacter(decoded))) return null;
    if (kind === "missing" && parts.length === 1) return { kind, type, key: parts[0]! };
    if (kind === "issue" && parts.length === 3) return { kind, type, severity: parts[0]!, field: parts[1]!, code: parts[2]! };
    if (kind === "excluded" && parts.length === 1) return { kind, type, reason: parts[0]! };
  } catch {
    return null;
  }
  return null;
}

export const RootCauseId = z
  .string()
  .max(1000)
  .refine((value) => rootCauseOriginOf(value) !== null, "is not a cause of this preview");
