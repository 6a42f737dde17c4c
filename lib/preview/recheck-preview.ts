import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import type { DatabaseTransaction } from "@/db/client";
import { addKeysListedIn, addUnsyncedKeys } from "@/lib/sync/unsynced-keys";
import { runChecks } from "./cross-check-preview";
import type { ReplacedKeys } from "./map-source-rows";
import type { PreviewRecordType } from "./preview-plan";

// An incremental run re-checks only what its changes can affect. preview_touched holds the keys of contacts that
// were replaced, added or removed (both the old and the new key), and of calendars and services whose usability
// flipped. In two passes:
// - recheckTargets, once the catalogue and the contacts are written: the small types whole and every contact sharing
//   a touched key are reset to what their mapping said and checked again. What others name is then final, so the
//   vehicles and appointments the run replaces after it, and the openings it reads whole, are checked as they are
//   mapped (lib/preview/incremental-checks.ts).
// - recheckDependents, at the end: every record naming a contact, service or calendar whose key became usable or
//   stopped being usable, with every record sharing a key with one of those, is reset and checked again (a reference
//   check asks only whether a usable record has the key).

const smallTypes: readonly PreviewRecordType[] = ["calendars", "service_categories", "services"];

/** Temporary tables of the run's transaction. Call first, before records change: it keeps the usable calendars and services. */
export async function prepareRecheck(tx: DatabaseTransaction, locationId: string): Promise<void> {
  await tx.execute(
    sql`create temporary table preview_touched (record_type text not null, record_key text not null, primary key (record_type, record_key)) on commit drop`,
  );
  await tx.execute(
    sql`create temporary table preview_recheck (record_type text not null, seq integer not null, primary key (record_type, seq)) on commit drop`,
  );
  await tx.execute(
    sql`create temporary table preview_removed_usable (record_type text not null, record_key text not null, primary key (record_type, record_key)) on commit drop`,
  );
  await tx.execute(sql`create temporary table preview_usable_before on commit drop as
    select record_type, record_key from preview_records
    where location_id = ${locationId} and record_type in ('calendars', 'services') and record_key is not null and status in ${sendableStatusList}`);
}

/**
 * Remembers keys whose records were replaced, added or removed. Of contacts, for the re-check (which of them had a usable
 * record before the run, too); of vehicles and appointments, checked as they were mapped, only the ledger needs them.
 */
export async function touchKeys(tx: DatabaseTransaction, locationId: string, type: PreviewRecordType, replaced: ReplacedKeys): Promise<void> {
  const present = [...new Set(replaced.keys.filter((key): key is string => key !== null))];
  if (type !== "contact_details") {
    await addUnsyncedKeys(tx, locationId, type, present);
    return;
  }
  if (present.length)
    await tx.execute(
      sql`insert into preview_touched (record_type, record_key) select ${type}, unnest(${sql.param(present)}::text[]) on conflict do nothing`,
    );
  const removedUsable = [...new Set(replaced.removedUsableKeys)];
  if (removedUsable.length) {
    await tx.execute(
      sql`insert into preview_removed_usable (record_type, record_key) select ${type}, unnest(${sql.param(removedUsable)}::text[]) on conflict do nothing`,
    );
  }
}

/**
 * Touched contact keys that had a usable record before this run: one it removed, or one an earlier run wrote
 * (statuses are still as before: call it before the re-check resets any).
 */
async function keepContactsUsableBefore(tx: DatabaseTransaction, locationId: string, runId: string): Promise<void> {
  await tx.execute(sql`create temporary table preview_contacts_usable_before on commit drop as
    select t.record_key from preview_touched t
    where t.record_type = 'contact_details' and (
      exists (select 1 from preview_removed_usable u where u.record_type = 'contact_details' and u.record_key = t.record_key)
      or exists (select 1 from preview_records r where r.location_id = ${locationId} and r.record_type = 'contact_details'
                 and r.record_key = t.record_key and r.run_id <> ${runId} and r.status in ${sendableStatusList}))`);
}

/** Touched contact keys whose usability flipped: what names them must be checked again, what names the others need not. */
async function findFlippedContacts(tx: DatabaseTransaction, locationId: string): Promise<void> {
  await tx.execute(sql`create temporary table preview_flipped_contacts on commit drop as
    select t.record_key from preview_touched t
    where t.record_type = 'contact_details'
      and exists (select 1 from preview_records r where r.location_id = ${locationId} and r.record_type = 'contact_details'
                  and r.record_key = t.record_key and r.status in ${sendableStatusList})
      <> exists (select 1 from preview_contacts_usable_before b where b.record_key = t.record_key)`);
  await tx.execute(sql`analyze preview_flipped_contacts`);
}

/** Resets the marked records (preview_recheck) to their mapping's status, issues and payload. */
async function resetMarked(tx: DatabaseTransaction, locationId: string): Promise<void> {
  // Statistics of the temporary table: without them the planner scans every record of the location instead of looking the marked ones up.
  await tx.execute(sql`analyze preview_recheck`);
  await tx.execute(sql`
    with removed as (
      delete from preview_issues i using preview_recheck k
      where i.location_id = ${locationId} and i.cross_check and i.record_type = k.record_type and i.seq = k.seq
      returning i.record_type, i.seq
    ), removed_per_record as (
      select record_type, seq, count(*)::int as removed from removed group by record_type, seq
    )
    update preview_records r set status = r.mapped_status, issue_count = r.issue_count - coalesce(c.removed, 0),
      payload = case when r.dropped_references is null then r.payload else r.payload || (r.dropped_references->'fields') end,
      content_hash = coalesce(r.dropped_references->>'hash', r.content_hash),
      dropped_references = null
    from preview_recheck k left join removed_per_record c on c.record_type = k.record_type and c.seq = k.seq
    where r.location_id = ${locationId} and r.record_type = k.record_type and r.seq = k.seq
      and (r.status <> r.mapped_status or c.removed is not null or r.dropped_references is not null)`);
}

/**
 * Records that name a contact, service or calendar whose usability flipped (preview_by_reference), and the keys of
 * those records (preview_reference_keys): every record sharing one is checked with them (a duplicate of a record
 * that stops or starts being usable changes with it), and their keys join the ledger. The contacts recheckTargets
 * marks by their key need neither: their key-mates are marked with them, and their keys are touched keys, which the
 * ledger gets at the end of the run.
 */
async function markByReference(tx: DatabaseTransaction, locationId: string): Promise<void> {
  await tx.execute(sql`create temporary table preview_by_reference on commit drop as
    select r.record_type, r.seq, r.record_key from preview_records r
    join preview_flipped_contacts f on f.record_key = r.ref_contact
    where r.location_id = ${locationId} and r.ref_contact is not null
    union
    select r.record_type, r.seq, r.record_key from preview_records r
    join preview_touched t on t.record_type = 'services' and t.record_key = r.ref_service
    where r.location_id = ${locationId} and r.record_type = 'appointments'
    union
    select r.record_type, r.seq, r.record_key from preview_records r
    join preview_touched t on t.record_type = 'calendars' and t.record_key = r.ref_calendar
    where r.location_id = ${locationId} and r.record_type = 'appointments'`);
  await tx.execute(sql`create temporary table preview_reference_keys on commit drop as
    select distinct record_type, record_key from preview_by_reference where record_key is not null`);
}

/**
 * The first pass, once the catalogue and the contacts are written and before the vehicles and appointments: checks the
 * catalogue and the touched contacts again, and notes which contacts, calendars and services flipped usability.
 */
export async function recheckTargets(tx: DatabaseTransaction, locationId: string, runId: string): Promise<void> {
  // The marked records are a few thousand of a location's million, and the run just touched their pages: look them
  // up by index (the default cost of a random read assumes a spinning disk and picks scans of the whole location).
  await tx.execute(sql`set local random_page_cost = 1.1`);
  await keepContactsUsableBefore(tx, locationId, runId);
  await tx.execute(sql`
    insert into preview_recheck (record_type, seq)
    select r.record_type, r.seq from preview_records r where r.location_id = ${locationId} and r.record_type in ${smallTypes}
    union all
    select r.record_type, r.seq from preview_records r
    join preview_touched t on t.record_type = 'contact_details' and t.record_key = r.record_key
    where r.location_id = ${locationId} and r.record_type = 'contact_details'`);
  await resetMarked(tx, locationId);
  await runChecks(tx, locationId, "marked", [...smallTypes, "contact_details"]);
  await findFlippedContacts(tx, locationId);

  // A calendar or service that became usable or unusable touches what names it (contacts: preview_flipped_contacts).
  await tx.execute(sql`
    insert into preview_touched (record_type, record_key)
    select record_type, record_key from (
      (select record_type, record_key from preview_records
       where location_id = ${locationId} and record_type in ('calendars', 'services') and record_key is not null and status in ${sendableStatusList}
       except select record_type, record_key from preview_usable_before)
      union
      (select record_type, record_key from preview_usable_before
       except select record_type, record_key from preview_records
       where location_id = ${locationId} and record_type in ('calendars', 'services') and record_key is not null and status in ${sendableStatusList})
    ) flipped
    on conflict do nothing`);
  await tx.execute(sql`truncate preview_recheck`);
}

/** The second pass, at the end of the run: what names a target that flipped usability. */
export async function recheckDependents(tx: DatabaseTransaction, locationId: string): Promise<void> {
  await tx.execute(sql`analyze preview_touched`);
  await markByReference(tx, locationId);
  await tx.execute(sql`analyze preview_reference_keys`);
  await tx.execute(sql`
    insert into preview_recheck (record_type, seq)
    select record_type, seq from preview_by_reference
    union
    select r.record_type, r.seq from preview_records r
    join preview_reference_keys k on k.record_type = r.record_type and k.record_key = r.record_key
    where r.location_id = ${locationId}
    on conflict do nothing`);
  // What the reset and the checks may change: an incremental sync plans from these keys (lib/sync/unsynced-keys.ts).
  await addKeysListedIn(tx, locationId, "preview_reference_keys");
  await resetMarked(tx, locationId);
  await runChecks(tx, locationId, "marked", ["appointments", "vehicles"]);
  await addKeysListedIn(tx, locationId, "preview_touched");
}
