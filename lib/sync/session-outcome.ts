import { queryRows } from "@/db/raw-sql";
import { sql } from "drizzle-orm";
import { enqueueAlertDelivery } from "@/lib/alerts/deliver-alert-job";
import { recordAlertTransition } from "@/lib/alerts/record-alert-transition";
import { requestPreviewRecountWithin } from "@/lib/preview/recount-preview-job";
import type { RemovalStop } from "@/db/schema";
import { hasSessionAttention } from "@/lib/locations/connection-attention";
import { upstreamSessionOpenHere } from "./open-upstream-session";
import type { SessionFence } from "./session-fence";
import { SESSION_ATTENTION_PREFIX as ATTENTION_PREFIX } from "./session-attention";

export function failureAttentionReason(step: string | null, reason: string, upstreamOpen: boolean): string {
  const where = step ? `at ${step}` : "before it started";
  // A reason that ends its own sentence ("… moved.", "… again?") gets no second full stop.
  const sentence = /[.!?…]$/.test(reason.trimEnd()) ? reason.trimEnd() : `${reason}.`;
  return `${ATTENTION_PREFIX}failed ${where}: ${sentence} ${upstreamOpen ? "Resume it or close the upstream session." : "Resume it."}`;
}

export async function finishSucceeded(fence: SessionFence, locationId: string): Promise<void> {
  await fence.write(async (tx) => {
    await tx.execute(
      sql`update sync_sessions set status = 'succeeded', error = null, current_step = null, finished_at = now(), lease_expires_at = null where id = ${fence.sessionId}`,
    );
    // A full session sent everything: the next need not be full, unless the location was edited after this one was requested.
    await tx.execute(sql`update locations l set full_sync_reason = null from sync_sessions s
             where l.id = ${locationId} and l.full_sync_reason is not null and s.id = ${fence.sessionId} and s.full and s.created_at >= l.updated_at`);
    await tx.execute(sql`update locations set attention_reason = null, attention_since = null, updated_at = now()
             where id = ${locationId} and ${hasSessionAttention}`);
    await enqueueAlertDelivery(tx, await recordAlertTransition(tx, { locationId, sessionId: fence.sessionId, outcome: "succeeded" }));
    await requestPreviewRecountWithin(tx, locationId);
  });
}

/** Failed or cancelled: the upstream session is left open on purpose (closing it would release campaigns on half-synced data). */
export async function finishStopped(
  fence: SessionFence,
  input: {
    locationId: string;
    status: "failed" | "cancelled";
    step: string | null;
    reason: string;
    removalStop?: RemovalStop;
    /** Leaves the location's attention as it is (a scheduled session skipped for starting late: nothing happened). */
    keepAttention?: boolean;
  },
): Promise<void> {
  await fence.write(async (tx) => {
    // upstream_open: this session's, or an earlier one's it stopped before inheriting (a failure before it started).
    const [session] = await queryRows<{ upstream_open: boolean }>(
      tx,
      sql`
      update sync_sessions s set status = ${input.status}, error = ${input.reason}, finished_at = now(), lease_expires_at = null,
        removal_stop = ${input.removalStop ? JSON.stringify(input.removalStop) : null}::jsonb
      where id = ${fence.sessionId}
      returning (s.upstream_open or ${upstreamSessionOpenHere(sql`s.location_id`)}) as upstream_open`,
    );
    // A step (or item) interrupted by the stop would otherwise read "running" in the history forever.
    const interrupted = input.status === "cancelled" ? "cancelled" : "failed";
    await tx.execute(sql`update sync_step_items set status = ${interrupted}, finished_at = now()
      where status = 'running' and step_id in (select id from sync_steps where session_id = ${fence.sessionId})`);
    await tx.execute(
      sql`update sync_steps set status = ${interrupted}, finished_at = now() where session_id = ${fence.sessionId} and status = 'running'`,
    );
    const attention = input.removalStop
      ? `${ATTENTION_PREFIX}stopped before sending anything: ${input.reason.replace(/^Stopped before sending anything: /, "")}.`
      : input.status === "failed"
        ? failureAttentionReason(input.step, input.reason, Boolean(session?.upstream_open))
        : session?.upstream_open
          ? `${ATTENTION_PREFIX}was cancelled at ${input.step ?? "its start"}. Resume it or close the upstream session.`
          : null;
    if (attention && !input.keepAttention) {
      await tx.execute(
        sql`update locations set attention_reason = ${attention}, attention_since = coalesce(attention_since, now()), updated_at = now() where id = ${input.locationId}`,
      );
    }
    if (input.status === "failed") {
      await enqueueAlertDelivery(
        tx,
        await recordAlertTransition(tx, { locationId: input.locationId, sessionId: fence.sessionId, outcome: "failed", reason: attention }),
      );
    }
    // What the session got accepted before it stopped changed the preview's new and changed counts too.
    await requestPreviewRecountWithin(tx, input.locationId);
  });
}
