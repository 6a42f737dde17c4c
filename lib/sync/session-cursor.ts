import { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";

/**
 * The keyset position of a session in the history's order: (created_at, id) descending.
 * created_at travels as UTC text with microseconds: a JS Date would drop them and skip or repeat rows.
 */
export interface SessionCursor {
  createdAt: string;
  id: string;
}

const CursorShape = z.tuple([z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), z.uuid()]);

export function encodeSessionCursor(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

export function decodeSessionCursor(value: string, field: "after" | "before"): SessionCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const parsed = CursorShape.safeParse(decoded);
  if (!parsed.success) {
    throw new DomainError("INVALID", `${field}: is not a valid page cursor`, [{ field, reason: "is not a valid page cursor" }]);
  }
  return { createdAt: parsed.data[0], id: parsed.data[1] };
}
