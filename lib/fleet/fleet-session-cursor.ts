import { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";

/** A row's keyset position in the fleet order: (priority, created_at with microseconds, id). */
export interface FleetSessionCursor {
  priority: number;
  createdAt: string;
  id: string;
}

const CursorShape = z.tuple([z.number().int().min(0).max(2), z.string().max(40), z.uuid()]);

export function encodeFleetSessionCursor(cursor: FleetSessionCursor): string {
  return Buffer.from(JSON.stringify([cursor.priority, cursor.createdAt, cursor.id])).toString("base64url");
}

export function decodeFleetSessionCursor(value: string): FleetSessionCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const parsed = CursorShape.safeParse(decoded);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data[1]))) {
    throw new DomainError("INVALID", "after: is not a valid page cursor", [{ field: "after", reason: "is not a valid page cursor" }]);
  }
  const [priority, createdAt, id] = parsed.data;
  return { priority, createdAt, id };
}
