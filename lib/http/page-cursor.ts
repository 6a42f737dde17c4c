import type { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";

/** A keyset position as an opaque link parameter (base64url JSON of the key's values), so the order's key can change without breaking links' meaning. */
export function encodePageCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** The key's values back, checked against `shape`; anything else is INVALID naming the parameter. */
export function decodePageCursor<Shape extends z.ZodType>(value: string, shape: Shape, field: string): z.infer<Shape> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const parsed = shape.safeParse(decoded);
  if (!parsed.success) throw new DomainError("INVALID", `${field}: is not a valid page cursor`, [{ field, reason: "is not a valid page cursor" }]);
  return parsed.data;
}
