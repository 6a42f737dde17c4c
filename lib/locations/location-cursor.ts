import { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";

/** The keyset position of a row in the list's order: (lower(name), id). */
export interface LocationCursor {
  sortName: string;
  id: string;
}

const CursorShape = z.tuple([z.string(), z.uuid()]);

/** Opaque to callers (base64url JSON) so the order's key can change without breaking links' meaning. */
export function encodeLocationCursor(cursor: LocationCursor): string {
  return Buffer.from(JSON.stringify([cursor.sortName, cursor.id])).toString("base64url");
}

export function decodeLocationCursor(value: string, field: "after" | "before"): LocationCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const parsed = CursorShape.safeParse(decoded);
  if (!parsed.success) throw new DomainError("INVALID", `${field}: is not a valid page cursor`, [{ field, reason: "is not a valid page cursor" }]);
  const [sortName, id] = parsed.data;
  return { sortName, id };
}
