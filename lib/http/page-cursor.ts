import { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";
import { findUnstorableText } from "@/lib/validation/safe-text";

/** A keyset position as an opaque link parameter (base64url JSON of the key's values), so the order's key can change without breaking links' meaning. */
export function encodePageCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/**
 * The key's values back, checked against `shape`; anything else is INVALID naming the parameter.
 * A cursor is typed by the client: JSON escapes can smuggle NUL or lone surrogates into its strings.
 */
export function decodePageCursor<Shape extends z.ZodType>(value: string, shape: Shape, field: string): z.infer<Shape> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const parsed = findUnstorableText(decoded) ? undefined : shape.safeParse(decoded);
  if (!parsed?.success) throw new DomainError("INVALID", `${field}: is not a valid page cursor`, [{ field, reason: "is not a valid page cursor" }]);
  return parsed.data;
}

/** A real calendar instant PostgreSQL accepts: `text` (ISO, UTC) names the same instant JavaScript reads from it, in years 1–9999. */
export function isRealUtcInstant(text: string): boolean {
  const time = Date.parse(text);
  if (Number.isNaN(time)) return false;
  const iso = new Date(time).toISOString();
  return iso.slice(0, 19) === text.slice(0, 19) && !iso.startsWith("0000") && !iso.startsWith("+");
}

/** A row's created_at in a cursor: UTC with microseconds (a JS Date would drop them and skip or repeat rows). */
export const CursorMicrosecondTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .refine((text) => isRealUtcInstant(`${text.slice(0, 23)}Z`));
