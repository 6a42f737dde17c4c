import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { sendableStatusList } from "@/lib/pipeline/record-status-sql";
import { acceptedOpenings, heldServices } from "@/lib/sync/synced-records/lookups";
import { openingsItems, type OpeningSummary } from "./openings-to-send";

/** The openings imports of a session sent from the preview: its sendable openings against what the upstream holds. */
export async function planOpenings(db: DatabaseOrTransaction, input: { locationId: string; full: boolean }): Promise<string[]> {
  const current = await queryRows<OpeningSummary>(
    db,
    sql`
    select r.ref_service as service, r.record_key as key, r.content_hash as hash from preview_records r
    where r.location_id = ${input.locationId} and r.record_type = 'openings' and r.status in ${sendableStatusList} and r.ref_service is not null`,
  );
  return openingsItems({
    current,
    accepted: await acceptedOpenings(db, input.locationId),
    heldServices: await heldServices(db, input.locationId),
    full: input.full,
  });
}
