import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { alertEvents, locations, syncSteps } from "@/db/schema";
import type { OperationContext } from "@/lib/operations/context";
import { recordsNotSentOf } from "@/lib/sync/records-not-sent";
import { loadAlertTargets, WEBHOOK_UNREADABLE } from "./alert-channels";
import { buildAlertMessage } from "./alert-message";
import { sendAlertEmail, smtpConfigured } from "./send-alert-email";
import { sendAlertWebhook } from "./send-alert-webhook";

/**
 * Sends one recorded alert to every configured channel. A channel that already received it
 * is skipped, so a retry after a partial failure does not repeat it; any failure throws
 * (pg-boss retries with backoff) after noting the error on the event.
 */
export async function deliverAlert(ctx: OperationContext, { eventId }: { eventId: string }): Promise<void> {
  const { db } = ctx;
  const [row] = await db
    .select({ event: alertEvents, locationName: locations.name, environment: locations.environment })
    .from(alertEvents)
    .innerJoin(locations, eq(locations.id, alertEvents.locationId))
    .where(eq(alertEvents.id, eventId));
  if (!row || row.event.deliveredAt) return;
  const { event } = row;
  const targets = await loadAlertTargets(db);
  const recordsNotSent = event.kind === "recovered" && event.sessionId ? await recordsNotSentBy(db, event.sessionId) : 0;
  const message = buildAlertMessage({ ...event, locationName: row.locationName, environment: row.environment, recordsNotSent });
  const errors: string[] = [];

  if (targets.webhookUrl && !event.webhookDeliveredAt) {
    try {
      await sendAlertWebhook(targets.webhookUrl, message.slack);
      await db.update(alertEvents).set({ webhookDeliveredAt: new Date() }).where(eq(alertEvents.id, eventId));
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (targets.webhookUnreadable && !event.webhookDeliveredAt) errors.push(WEBHOOK_UNREADABLE);
  if (targets.recipients.length > 0 && smtpConfigured() && !event.emailDeliveredAt) {
    try {
      await sendAlertEmail(targets.recipients, message);
      await db.update(alertEvents).set({ emailDeliveredAt: new Date() }).where(eq(alertEvents.id, eventId));
    } catch (error) {
      errors.push(`Email: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (errors.length > 0) {
    await db
      .update(alertEvents)
      .set({ lastError: errors.join(" ") })
      .where(eq(alertEvents.id, eventId));
    throw new Error(`Alert ${eventId} not delivered: ${errors.join(" ")}`);
  }
  await db.update(alertEvents).set({ deliveredAt: new Date(), lastError: null }).where(eq(alertEvents.id, eventId));
}

async function recordsNotSentBy(db: DatabaseOrTransaction, sessionId: string): Promise<number> {
  const steps = await db
    .select({ name: syncSteps.name, recordsInvalid: syncSteps.recordsInvalid, recordsExcluded: syncSteps.recordsExcluded })
    .from(syncSteps)
    .where(eq(syncSteps.sessionId, sessionId));
  return recordsNotSentOf(steps).total;
}
