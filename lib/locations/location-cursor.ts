import { z } from "zod";
import { decodePageCursor, encodePageCursor } from "@/lib/http/page-cursor";

/** The keyset position of a row in the list's order: (lower(name), id). */
export interface LocationCursor {
  sortName: string;
  id: string;
}

const CursorShape = z.tuple([z.string(), z.uuid()]);

export function encodeLocationCursor(cursor: LocationCursor): string {
  return encodePageCursor([cursor.sortName, cursor.id]);
}

export function decodeLocationCursor(value: string, field: "after" | "before"): LocationCursor {
  const [sortName, id] = decodePageCursor(value, CursorShape, field);
  return { sortName, id };
}
