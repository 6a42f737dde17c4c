import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { syncStepNames, type SyncStepName } from "./step-names";
import type { SessionFence } from "./session-fence";

export interface StepRow {
  id: string;
  name: SyncStepName;
  position: number;
  status: string;
  attempts: number;
}

/** A step this session still runs: not succeeded, not skipped. */
export const isPending = (step: Pick<StepRow, "status">) => step.status !== "succeeded" && step.status !== "skipped";

export interface SessionShape {
  optionalSteps: readonly string[];
  automotive: boolean;
  /** A resumed session and its failed step, whose items are carried over. */
  resumed: { sessionId: string; failedStep: SyncStepName | null } | null;
  /** A scoped replay sends these steps only (between open and close). */
  replayed: readonly SyncStepName[] | null;
}

function initialStatus(name: SyncStepName, position: number, shape: SessionShape): "pending" | "skipped" {
  if (shape.replayed && name !== "open" && name !== "close" && !shape.replayed.includes(name)) return "skipped";
  if ((name === "calendars" || name === "service_categories" || name === "services") && !shape.optionalSteps.includes(name)) return "skipped";
  if (name === "vehicles" && !shape.automotive) return "skipped";
  // Resume: steps before the failed one were done by the resumed session ("open" is decided when it runs), but those
  // whose records later steps name run again: what the source added since (a customer who booked) must reach the
  // upstream before a record naming it, and they send only what the upstream does not hold as it is now.
  const failedAt = shape.resumed?.failedStep ? syncStepNames.indexOf(shape.resumed.failedStep) : -1;
  if (name !== "open" && position < failedAt && !namedByLaterSteps.includes(name)) return "skipped";
  return "pending";
}

/** Steps whose records the later steps' records name (services name calendars and categories; visits name them all). */
const namedByLaterSteps: readonly SyncStepName[] = ["calendars", "service_categories", "services", "contact_details", "vehicles"];

/**
 * The session's step rows, created once (a takeover finds them). A resumed session
 * carries over the items of the failed step: the succeeded ones are not sent again. The pending
 * ones send the location's records as they are now; what changed inside an item that already
 * succeeded stays new or changed for the next session.
 */
export async function ensureStepRows(db: DatabaseOrTransaction, fence: SessionFence, shape: SessionShape): Promise<StepRow[]> {
  const sessionId = fence.sessionId;
  await fence.write(async (tx) => {
    const [existing] = await tx.execute(sql`select 1 from sync_steps where session_id = ${sessionId} limit 1`);
    if (existing) return;
    for (const [position, name] of syncStepNames.entries()) {
      const status = initialStatus(name, position, shape);
      await tx.execute(sql`insert into sync_steps (session_id, name, position, status) values (${sessionId}, ${name}, ${position}, ${status})`);
    }
    const resumed = shape.resumed;
    if (resumed?.failedStep) {
      await tx.execute(sql`
        insert into sync_step_items (step_id, key, position, status, records_sent, records_left_out, bytes, attempts)
        select mine.id, item.key, item.position,
               case when item.status = 'succeeded' then 'succeeded'::sync_step_status else 'pending'::sync_step_status end,
               case when item.status = 'succeeded' then item.records_sent else 0 end,
               case when item.status = 'succeeded' then item.records_left_out else 0 end,
               case when item.status = 'succeeded' then item.bytes else 0 end, 0
        from sync_step_items item
        join sync_steps theirs on theirs.id = item.step_id and theirs.session_id = ${resumed.sessionId} and theirs.name = ${resumed.failedStep}
        join sync_steps mine on mine.session_id = ${sessionId} and mine.name = ${resumed.failedStep}`);
    }
  });
  return queryRows<StepRow>(db, sql`select id, name, position, status, attempts from sync_steps where session_id = ${sessionId} order by position`);
}

/** Whether the session has begun any step (a takeover of one that has is past deciding whether to start). */
export async function anyStepStarted(db: DatabaseOrTransaction, sessionId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from sync_steps where session_id = ${sessionId} and status not in ('pending', 'skipped') limit 1`);
  return rows.length > 0;
}
