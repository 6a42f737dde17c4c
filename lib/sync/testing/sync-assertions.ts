import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { previewRecords, syncedRecords, type sandboxRecords } from "@/db/schema";
import { sandboxStored } from "./sync-test-setup";
import type { SourceRows } from "@/lib/source/testing/array-source-reader";
import { emptyUpstream, expectedUpstream, type Upstream } from "./expected-upstream";
import { sampleMappingAt } from "./sample-source";

type RecordType = (typeof sandboxRecords.$inferSelect)["type"];

/** The valid preview records of a location of one type, keyed like the sandbox keys them. */
export async function sendableRecords(db: Database, locationId: string, type: RecordType): Promise<Map<string, unknown>> {
  const rows = await db
    .select({ key: previewRecords.recordKey, payload: previewRecords.payload })
    .from(previewRecords)
    .where(and(eq(previewRecords.locationId, locationId), eq(previewRecords.recordType, type), inArray(previewRecords.status, ["valid", "warning"])));
  return new Map(rows.map((row) => [row.key!, row.payload]));
}

/**
 * Sandbox state, what it must hold, and synced_records keys of one type, for one comparison. What it must hold: with
 * `rows`, what the policies say syncing them gives (expected-upstream.ts, mapped at `now`, default sampleNow; no
 * customer left since the first sync); without, the sendable records of a preview computed after the session.
 */
export async function compareType(
  db: Database,
  input: { locationId: string; upstreamLocationId: string; type: keyof Upstream; rows?: SourceRows; now?: Date },
) {
  const stored = await sandboxStored(db, input.upstreamLocationId, input.type);
  const expected = input.rows
    ? new Map(Object.entries(expectedUpstream(emptyUpstream(), input.rows, sampleMappingAt(input.now))[input.type]))
    : await sendableRecords(db, input.locationId, input.type);
  const synced = await db
    .select({ key: syncedRecords.recordKey })
    .from(syncedRecords)
    .where(and(eq(syncedRecords.locationId, input.locationId), eq(syncedRecords.recordType, input.type)));
  return {
    stored: Object.fromEntries([...stored].sort(([a], [b]) => a.localeCompare(b))),
    expected: Object.fromEntries([...expected].sort(([a], [b]) => a.localeCompare(b))),
    syncedKeys: synced.map((row) => row.key).sort(),
  };
}

/**
 * Request lines ("METHOD endpoint status") with the openings imports' lines sorted: those imports go several at a time
 * (SYNC_OPENINGS_CONCURRENCY), so their POSTs and uploads interleave in any order. Everything before them, and the
 * closing update_management_system after them, keeps its order.
 */
export function openingsInAnyOrder(lines: readonly string[]): string[] {
  const first = lines.findIndex((line) => line.startsWith("POST batch_sync_openings"));
  if (first < 0) return [...lines];
  const closing = lines.findLastIndex((line) => line.startsWith("PUT update_management_system"));
  const end = closing > first ? closing : lines.length;
  return [...lines.slice(0, first), ...lines.slice(first, end).sort(), ...lines.slice(end)];
}
