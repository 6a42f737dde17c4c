import { sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { differingKeys } from "@/lib/sync/synced-records/compare";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { anythingAccepted } from "@/lib/sync/synced-records/lookups";
import { deleteAcceptedRecords } from "@/lib/sync/synced-records/record-accepted";

// The unsynced keys of a location (db/schema/synced-records.ts): every key whose sendable preview record and what the
// upstream accepted may differ. An incremental sync plans from them — the changed contacts, the gone ones, the touched
// appointment dates — instead of comparing the whole location's preview with synced_records. They are a superset, so
// planning from them selects exactly what the whole comparison selects; they are trusted only while the location has a
// ledger row, which is written when the preview and the upstream are known to agree and dropped when anything could
// make them differ unseen.
//
// - An incremental preview run adds the keys it replaced, added or removed, and those of the records it re-checks for
//   what they name (lib/preview/recheck-preview.ts).
// - A full preview run drops the ledger before it writes, and at its end compares the whole location once to start it
//   again with what differs. Deleting synced_records (a move, leaving the upstream) drops it.
// - A session that sent from its own preview clears the keys of the steps it ran whole; if it ran all of them, the
//   preview and the upstream agree and the ledger is (re)started. A session sent straight from the source adds the keys
//   it recorded or forgot (noteStreamedKeys). A quiet session settles nothing: the upstream holds
//   what its base mapped, while the preview may be a later mapping of the same source (a rebuild: a birth date that
//   was in the future then) that nothing compared with it.

export const ledgerTypes = ["contact_details", "vehicles", "appointments"] as const satisfies readonly PreviewRecordType[];
const ledgerTypeList = sql.raw(`(${ledgerTypes.map((type) => `'${type}'`).join(", ")})`);

/**
 * The condition of every insert into unsynced_keys: the location keeps a ledger, and its row is locked as the foreign
 * key's check locked it per row (unsynced_keys has none: db/schema/synced-records.ts), so a delete of the location
 * waits until the write's transaction ends and then its trigger takes the keys with it.
 */
const ledgerKept = (locationId: string) => sql`exists (select 1 from unsynced_key_ledgers l where l.location_id = ${locationId})
  and exists (select 1 from locations where id = ${locationId} for key share)`;

/** Whether the location's unsynced keys are complete (then a plan may read only them). */
export async function unsyncedKeysKnown(db: DatabaseOrTransaction, locationId: string): Promise<boolean> {
  const [row] = await queryRows(db, sql`select 1 from unsynced_key_ledgers where location_id = ${locationId}`);
  return Boolean(row);
}

/** `column` is one of the location's unsynced keys of `type`. */
export function amongUnsyncedKeys(locationId: string, type: PreviewRecordType, column: SQL): SQL {
  return sql`${column} in (select u.record_key from unsynced_keys u where u.location_id = ${locationId} and u.record_type = ${type})`;
}

/** The location leaves its upstream location (a move, a new upstream ID): what that one accepted says nothing of the next. */
export async function forgetAcceptedRecords(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  await deleteAcceptedRecords(db, locationId);
  await forgetUnsyncedKeys(db, locationId);
}

/** Anything may now differ unseen: a plan compares the whole location again until the ledger is started anew. */
export async function forgetUnsyncedKeys(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  await db.execute(sql`delete from unsynced_key_ledgers where location_id = ${locationId}`);
  await db.execute(sql`delete from unsynced_keys where location_id = ${locationId}`);
}

/** A crash emptied every location's preview (lib/preview/preview-store.ts): no ledger describes it any more. */
export async function forgetEveryUnsyncedKey(db: DatabaseOrTransaction): Promise<void> {
  await db.execute(sql`delete from unsynced_key_ledgers`);
  await db.execute(sql`delete from unsynced_keys`);
}

/**
 * Inside an incremental preview run: the keys listed in one of its temporary tables (lib/preview/recheck-preview.ts) —
 * the touched contacts (preview_touched) or the records it re-checks for what they name (preview_reference_keys).
 */
export async function addKeysListedIn(
  db: DatabaseOrTransaction,
  locationId: string,
  table: "preview_touched" | "preview_reference_keys",
): Promise<void> {
  await db.execute(sql`
    insert into unsynced_keys (location_id, record_type, record_key)
    select ${locationId}::uuid, k.record_type, k.record_key from ${sql.identifier(table)} k
    where k.record_type in ${ledgerTypeList} and ${ledgerKept(locationId)}
    on conflict do nothing`);
}

/** Keys whose records of `type` an incremental preview run replaced, added or removed, or a streamed session recorded. */
export async function addUnsyncedKeys(
  db: DatabaseOrTransaction,
  locationId: string,
  type: PreviewRecordType,
  keys: readonly string[],
): Promise<void> {
  if (!keys.length || !(ledgerTypes as readonly string[]).includes(type)) return;
  await db.execute(sql`
    insert into unsynced_keys (location_id, record_type, record_key)
    select ${locationId}::uuid, ${type}, unnest(${sql.param(keys)}::text[])
    where ${ledgerKept(locationId)}
    on conflict do nothing`);
}

/**
 * A session sent straight from the source (a quiet session's gained days, a replay, a first sync or its resume) records
 * what the upstream accepted without a preview that saw it. While the location keeps a ledger, the keys it recorded or
 * forgot join it, so that the next plan compares them: a visit sent so and deleted in the source since would otherwise
 * stay upstream for good, no preview record of it ever changing.
 */
export async function noteStreamedKeys(
  db: DatabaseOrTransaction,
  locationId: string,
  type: PreviewRecordType,
  keys: readonly string[],
): Promise<void> {
  if (!keys.length || !(ledgerTypes as readonly string[]).includes(type) || !(await unsyncedKeysKnown(db, locationId))) return;
  await addUnsyncedKeys(db, locationId, type, keys);
}

async function startLedger(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  await db.execute(sql`delete from unsynced_keys where location_id = ${locationId}`);
  await db.execute(sql`insert into unsynced_key_ledgers (location_id) values (${locationId}) on conflict do nothing`);
}

/** More keys than this and a sync compares the whole location anyway: the ledger is left unknown. */
const MOST_KEYS_TO_START = 50_000;

/**
 * At the end of a full preview run, in the transaction of its last write: the keys that differ now, compared whole
 * once (off any sync's path), start the ledger. Not while a session of the location runs: a streamed one may record
 * what it mapped before this run did, after this comparison (one that starts later maps later than this run). Not for
 * a location the upstream holds nothing of, nor when most of it differs: its next sync sends everything either way.
 */
export async function startLedgerByComparison(db: DatabaseOrTransaction, locationId: string): Promise<void> {
  const [running] = await queryRows(db, sql`select 1 from sync_sessions where location_id = ${locationId} and status = 'running' limit 1`);
  if (running || !(await anythingAccepted(db, locationId))) return;
  // One hash join of a million appointments a side: in memory, not in batches on disk.
  await db.execute(sql`set local work_mem = '256MB'`);
  await startLedger(db, locationId);
  const [inserted] = await queryRows<{ keys: number }>(
    db,
    sql`
    with inserted as (
      insert into unsynced_keys (location_id, record_type, record_key)
      select ${locationId}::uuid, differing.record_type, differing.record_key from (${differingKeys(locationId)}) differing
      where differing.record_key is not null and ${ledgerKept(locationId)}
      limit ${MOST_KEYS_TO_START + 1}
      on conflict do nothing
      returning 1
    )
    select count(*)::int as keys from inserted`,
  );
  if (inserted!.keys > MOST_KEYS_TO_START) await forgetUnsyncedKeys(db, locationId);
}

/**
 * In the session's last write before it is marked succeeded: until then no preview run can start (a run refuses while a
 * session of the location is running), and one already running could add keys unseen, so then nothing is settled. A
 * resume sends what its carried items planned, a replay only its scope: neither settles anything. `rechecked`: the
 * session sent some appointments otherwise than its preview has them (a catalogue step left out): their keys stay.
 */
export async function settleUnsyncedKeys(db: DatabaseOrTransaction, sessionId: string, options: { rechecked?: boolean } = {}): Promise<void> {
  const [session] = await queryRows<{
    location_id: string;
    streamed: boolean;
    replayed: boolean;
    resumed: boolean;
    preview_run_id: string | null;
    automotive: boolean;
    run_running: boolean;
  }>(
    db,
    sql`select s.location_id, s.streamed, s.replay is not null as replayed, s.resumes_session_id is not null as resumed,
               s.preview_run_id, l.automotive,
               exists (select 1 from preview_runs p where p.location_id = s.location_id and p.status = 'running') as run_running
        from sync_sessions s join locations l on l.id = s.location_id where s.id = ${sessionId}`,
  );
  if (!session || session.replayed || session.resumed || session.run_running) return;
  const locationId = session.location_id;
  // A streamed session (a quiet one too) sent from no preview.
  if (session.streamed || !session.preview_run_id) return;
  const steps = await queryRows<{ name: string }>(
    db,
    sql`select name from sync_steps where session_id = ${sessionId} and name in ${ledgerTypeList} and status = 'succeeded'`,
  );
  const sent = steps.map((step) => step.name).filter((name) => !(options.rechecked && name === "appointments"));
  // Vehicles of a location that is not automotive are skipped from the start: its preview holds none.
  const needed = ledgerTypes.filter((type) => type !== "vehicles" || session.automotive);
  if (needed.every((type) => sent.includes(type))) await startLedger(db, locationId);
  else if (sent.length)
    await db.execute(sql`delete from unsynced_keys where location_id = ${locationId} and record_type = any(${sql.param(sent)}::text[])`);
}
