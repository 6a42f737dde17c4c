import { z } from "zod";
import { CursorMicrosecondTimestamp, decodePageCursor, encodePageCursor } from "@/lib/http/page-cursor";

/**
 * The keyset position of a session in the history's order: (created_at, id) descending.
 * created_at travels as UTC text with microseconds: a JS Date would drop them and skip or repeat rows.
 */
export interface SessionCursor {
  createdAt: string;
  id: string;
}

const CursorShape = z.tuple([CursorMicrosecondTimestamp, z.uuid()]);

export function encodeSessionCursor(cursor: SessionCursor): string {
  return encodePageCursor([cursor.createdAt, cursor.id]);
}

export function decodeSessionCursor(value: string, field: "after" | "before"): SessionCursor {
  const [createdAt, id] = decodePageCursor(value, CursorShape, field);
  return { createdAt, id };
}
