import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertEvents, locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startJobSender, stopJobSender } from "@/lib/jobs/job-sender";
import { systemContext } from "@/lib/operations/context";
import { resendUndeliveredAlerts } from "./resend-undelivered-alerts";

const testDb = await useTestDatabase();
const { db } = testDb;
// As in a worker, the queue's tables exist before the pass runs.
beforeAll(() => startJobSender());
afterAll(() => stopJobSender());

const now = new Date("2026-12-07T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const jobsOf = async (eventId: string) =>
  (await testDb.sql`select state from pgboss.job where name = 'alerts.deliver' and data ->> 'eventId' = ${eventId}`).length;

describe("resendUndeliveredAlerts", () => {
  it("queues once an alert whose delivery ran out of retries, and leaves the delivered, the recent and the day-old", async () => {
    const [location] = await db.insert(locations).values({ name: "Alerting Salon" }).returning();
    const event = (values: Partial<typeof alertEvents.$inferInsert>) =>
      db
        .insert(alertEvents)
        .values({ locationId: location!.id, kind: "failed", reason: "r", ...values })
        .returning()
        .then(([row]) => row!.id);
    const lost = await event({ createdAt: minutesAgo(45), lastError: "webhook: 503", webhookDeliveredAt: minutesAgo(44) });
    const delivered = await event({ createdAt: minutesAgo(45), deliveredAt: minutesAgo(44) });
    const recent = await event({ createdAt: minutesAgo(5) });
    const stale = await event({ createdAt: minutesAgo(2 * 24 * 60) });

    expect(await resendUndeliveredAlerts({ ...systemContext(db), now })).toEqual([lost]);
    // Its job waits now: the next pass queues nothing more.
    expect(await resendUndeliveredAlerts({ ...systemContext(db), now })).toEqual([]);
    expect([await jobsOf(lost), await jobsOf(delivered), await jobsOf(recent), await jobsOf(stale)]).toEqual([1, 0, 0, 0]);
  });
});
