import { z } from "zod";
import { CursorMicrosecondTimestamp, decodePageCursor, encodePageCursor } from "@/lib/http/page-cursor";

/** A row's keyset position in the fleet order: (priority, created_at with microseconds, id). */
export interface FleetSessionCursor {
  priority: number;
  createdAt: string;
  id: string;
}

const CursorShape = z.tuple([z.number().int().min(0).max(2), CursorMicrosecondTimestamp, z.uuid()]);

export function encodeFleetSessionCursor(cursor: FleetSessionCursor): string {
  return encodePageCursor([cursor.priority, cursor.createdAt, cursor.id]);
}

export function decodeFleetSessionCursor(value: string): FleetSessionCursor {
  const [priority, createdAt, id] = decodePageCursor(value, CursorShape, "after");
  return { priority, createdAt, id };
}
