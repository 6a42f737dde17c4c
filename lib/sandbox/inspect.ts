import { and, asc, count, desc, eq, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseOrTransaction } from "@/db/client";
import {
  sandboxEnvironments,
  sandboxLocations,
  sandboxRecords,
  sandboxRecordTypes,
  sandboxRequestLog,
  sandboxSessionEvents,
  sandboxSessions,
  sandboxUploads,
  sandboxUsers,
  type SandboxRecordType,
} from "@/db/schema";
import { safeText } from "@/lib/validation/safe-text";

export const SandboxInspectQuery = z.object({
  location: safeText().min(1).max(200).optional(),
  type: z.enum(sandboxRecordTypes).default("contact_details"),
  /** Keyset page of the requests: those older than this request id (newest first). */
  before: z.coerce.number().int().positive().optional(),
});
export type SandboxInspectQuery = z.infer<typeof SandboxInspectQuery>;

/** Every location the sandbox holds, for the inspector's picker. */
export async function listSandboxLocations(db: DatabaseOrTransaction) {
  return db
    .select({
      id: sandboxLocations.id,
      name: sandboxLocations.name,
      environment: sandboxEnvironments.name,
      ownerEmail: sandboxUsers.email,
      syncInProgress: sandboxLocations.syncInProgress,
      dataSource: sandboxLocations.dataSource,
    })
    .from(sandboxLocations)
    .innerJoin(sandboxEnvironments, eq(sandboxEnvironments.id, sandboxLocations.environmentId))
    .innerJoin(sandboxUsers, eq(sandboxUsers.id, sandboxLocations.ownerId))
    .orderBy(asc(sandboxEnvironments.name), asc(sandboxLocations.id))
    .limit(500);
}

/** What the sandbox holds for one location: records per type, sessions with events and uploads, recent requests. */
export async function inspectSandboxLocation(
  db: DatabaseOrTransaction,
  input: { locationId: string; type: SandboxRecordType; recordLimit?: number; sessionLimit?: number; requestLimit?: number; requestsBefore?: number },
) {
  const [location] = await db.select().from(sandboxLocations).where(eq(sandboxLocations.id, input.locationId));
  if (!location) return undefined;
  const countRows = await db
    .select({ type: sandboxRecords.type, count: count() })
    .from(sandboxRecords)
    .where(eq(sandboxRecords.locationId, location.id))
    .groupBy(sandboxRecords.type);
  const counts = Object.fromEntries(sandboxRecordTypes.map((type) => [type, 0])) as Record<SandboxRecordType, number>;
  for (const row of countRows) counts[row.type] = row.count;
  const records = await db
    .select({ key: sandboxRecords.key, data: sandboxRecords.data, updatedAt: sandboxRecords.updatedAt })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, location.id), eq(sandboxRecords.type, input.type)))
    .orderBy(asc(sandboxRecords.localDate), asc(sandboxRecords.key))
    .limit(input.recordLimit ?? 25);
  const sessions = await db
    .select()
    .from(sandboxSessions)
    .where(eq(sandboxSessions.locationId, location.id))
    .orderBy(desc(sandboxSessions.openedAt))
    .limit(input.sessionLimit ?? 10);
  const sessionIds = sessions.map((session) => session.id);
  const events = sessionIds.length
    ? await db.select().from(sandboxSessionEvents).where(inArray(sandboxSessionEvents.sessionId, sessionIds)).orderBy(asc(sandboxSessionEvents.id))
    : [];
  const uploads = sessionIds.length
    ? await db
        .select({
          id: sandboxUploads.id,
          sessionId: sandboxUploads.sessionId,
          kind: sandboxUploads.kind,
          status: sandboxUploads.status,
          parameters: sandboxUploads.parameters,
          recordCount: sandboxUploads.recordCount,
          byteCount: sandboxUploads.byteCount,
          rejection: sandboxUploads.rejection,
          createdAt: sandboxUploads.createdAt,
          usedAt: sandboxUploads.usedAt,
        })
        .from(sandboxUploads)
        .where(inArray(sandboxUploads.sessionId, sessionIds))
        .orderBy(asc(sandboxUploads.createdAt))
    : [];
  // Newest first, a page at a time by id (the index is on location, id); one more row says whether an older page exists.
  const requestLimit = input.requestLimit ?? 50;
  const requestRows = await db
    .select()
    .from(sandboxRequestLog)
    .where(
      and(
        eq(sandboxRequestLog.locationId, location.id),
        input.requestsBefore === undefined ? undefined : lt(sandboxRequestLog.id, input.requestsBefore),
      ),
    )
    .orderBy(desc(sandboxRequestLog.id))
    .limit(requestLimit + 1);
  const requests = requestRows.slice(0, requestLimit);
  const olderRequestsBefore = requestRows.length > requestLimit ? requests.at(-1)!.id : null;
  return {
    location,
    counts,
    records,
    sessions: sessions.map((session) => ({
      ...session,
      events: events.filter((event) => event.sessionId === session.id),
      uploads: uploads.filter((upload) => upload.sessionId === session.id),
    })),
    requests,
    /** The `before` of the next (older) page of requests; null on the last page. */
    olderRequestsBefore,
  };
}
export type SandboxLocationInspection = NonNullable<Awaited<ReturnType<typeof inspectSandboxLocation>>>;
