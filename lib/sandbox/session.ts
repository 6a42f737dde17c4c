import { eq, sql } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { sandboxLocations, sandboxSessionEvents, sandboxSessions } from "@/db/schema";
import type { SandboxLocation } from "./auth";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Locks the location row so opening, closing and accepting uploads never interleave. */
export async function lockLocation(tx: Transaction, locationId: string): Promise<SandboxLocation> {
  const [location] = await tx.select().from(sandboxLocations).where(eq(sandboxLocations.id, locationId)).for("update");
  if (!location) throw new Error(`location ${locationId} vanished`);
  return location;
}

/** sync in progress true: a new session starts (or the open one continues: the call is idempotent). */
export async function openSession(db: Database, locationId: string, dataSource: string): Promise<string> {
  return db.transaction(async (tx) => {
    const location = await lockLocation(tx, locationId);
    if (location.syncInProgress && location.currentSessionId) return location.currentSessionId;
    const [session] = await tx.insert(sandboxSessions).values({ locationId, dataSource }).returning({ id: sandboxSessions.id });
    await tx
      .update(sandboxLocations)
      .set({ syncInProgress: true, dataSource, currentSessionId: session!.id })
      .where(eq(sandboxLocations.id, locationId));
    await tx.insert(sandboxSessionEvents).values({ sessionId: session!.id, kind: "opened", details: { dataSource } });
    return session!.id;
  });
}

export interface ReleaseCounts {
  [kind: string]: number;
}

/**
 * sync in progress false: the session's accepted uploads are applied in the order
 * they were received, then campaigns are "released" (recorded as an event).
 */
export async function closeSession(db: Database, locationId: string): Promise<{ sessionId: string; counts: ReleaseCounts } | undefined> {
  return db.transaction(async (tx) => {
    const location = await lockLocation(tx, locationId);
    if (!location.syncInProgress || !location.currentSessionId) return undefined;
    const sessionId = location.currentSessionId;
    const counts = await applySessionUploads(tx, locationId, sessionId);
    await tx.update(sandboxSessions).set({ closedAt: new Date() }).where(eq(sandboxSessions.id, sessionId));
    await tx.update(sandboxLocations).set({ syncInProgress: false, currentSessionId: null }).where(eq(sandboxLocations.id, locationId));
    await tx.insert(sandboxSessionEvents).values({ sessionId, kind: "campaigns_released", details: { counts } });
    return { sessionId, counts };
  });
}

async function applySessionUploads(tx: DatabaseOrTransaction, locationId: string, sessionId: string): Promise<ReleaseCounts> {
  const uploads = await tx.execute<{ id: string; kind: string; parameters: Record<string, string>; record_count: number | null }>(
    sql`select id, kind, parameters, record_count from sandbox.uploads
        where session_id = ${sessionId} and status = 'accepted' order by used_at, id`,
  );
  const counts: ReleaseCounts = {};
  for (const upload of uploads) {
    if (upload.kind === "appointments") {
      await tx.execute(sql`delete from sandbox.records where location_id = ${locationId} and type = 'appointments'
        and local_date between ${upload.parameters.start_date} and ${upload.parameters.end_date}`);
    }
    if (upload.kind === "openings") {
      await tx.execute(sql`delete from sandbox.records where location_id = ${locationId} and type = 'openings'
        and service_external_id = ${upload.parameters.service_external_id}
        and local_date between ${upload.parameters.start_date} and ${upload.parameters.end_date}`);
    }
    // Contact details and vehicles are "create or update" (spec 4.4.3): an update merges the sent fields into the
    // stored record, so a partial record erases nothing. Appointments and openings replace their range (above).
    const merge = upload.kind === "contact_details" || upload.kind === "vehicles";
    await tx.execute(sql`insert into sandbox.records as stored (location_id, type, key, data, local_date, service_external_id, updated_at)
      select ${locationId}, ${upload.kind}, key, data, local_date, ${upload.parameters.service_external_id ?? null}, now()
      from sandbox.staged_records where upload_id = ${upload.id}
      on conflict (location_id, type, key) do update set
        data = ${merge ? sql`stored.data || excluded.data` : sql`excluded.data`}, local_date = excluded.local_date,
        service_external_id = excluded.service_external_id, updated_at = excluded.updated_at`);
    await tx.execute(sql`delete from sandbox.staged_records where upload_id = ${upload.id}`);
    await tx.execute(sql`update sandbox.uploads set status = 'applied' where id = ${upload.id}`);
    counts[upload.kind] = (counts[upload.kind] ?? 0) + (upload.record_count ?? 0);
  }
  return counts;
}
