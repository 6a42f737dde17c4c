import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { alertChannels, alertEvents, auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import type { AnyJob } from "@/lib/jobs/define-job";
import { startJobEngine, type JobEngine } from "@/lib/jobs/job-engine";
import { systemContext } from "@/lib/operations/context";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "@/lib/sync/request-session";
import { runSession, type RunSessionOptions } from "@/lib/sync/run-session";
import { resumeSession } from "@/lib/sync/session-actions";
import { sampleNow, sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { computeQueuedPreview, createConnectedLocation, noWaits, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { generateSecretKey } from "@/lib/crypto/keyring";
import { getAlertChannelsView, saveAlertChannels, WEBHOOK_UNREADABLE } from "./alert-channels";
import { deliverAlert } from "./deliver-alert";
import { deliverAlertJob } from "./deliver-alert-job";
import { startSmtpReceiver, startWebhookReceiver, type SmtpReceiver, type WebhookReceiver } from "./testing/alert-receivers";

// The webhook receiver listens on 127.0.0.1: only allowed by this setting (lib/alerts/webhook-safety.test.ts without it).
process.env.ALERT_WEBHOOK_ALLOW_PRIVATE = "true";
const testDb = await useTestDatabase();
const { db } = testDb;
const admin = systemActorAs("admin@example.test");
const setup = await useSyncSandbox(db);
let webhook: WebhookReceiver;
let smtp: SmtpReceiver;
let jobs: JobEngine;

beforeAll(async () => {
  webhook = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  process.env.SMTP_URL = smtp.url;
  // Polled every 0.5 s rather than the job's 2 s: each delivery below is otherwise mostly a wait for the next poll.
  const deliverAlertsSooner = { ...deliverAlertJob, work: () => ({ pollingIntervalSeconds: 0.5 }) };
  jobs = await startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [deliverAlertsSooner as unknown as AnyJob], log: () => {} });
});
afterEach(() => clearFaults(db));
afterAll(async () => {
  delete process.env.SMTP_URL;
  await jobs.stop();
  await Promise.all([webhook.close(), smtp.close()]);
});

const options = (overrides: Partial<RunSessionOptions> = {}): RunSessionOptions => ({
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0 },
  ...overrides,
});
const failFast: Partial<RunSessionOptions> = { client: { ...noWaits, maxAttempts: 1 }, config: { stepBackoffMs: 0, stepAttempts: 1 } };

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const textsOf = () => webhook.bodies.map((body) => (body as { text: string }).text);
const allDelivered = async () => (await db.select().from(alertEvents)).every((event) => event.deliveredAt !== null);

describe("alert channels", () => {
  it("seals the webhook URL, shows only its last 4 characters and audits without it", async () => {
    const view = await saveAlertChannels(
      { db, actor: admin },
      {
        webhookUrl: webhook.url,
        recipients: ["Ops@Example.test", "ops@example.test", "oncall@example.test"],
      },
    );
    expect(view.webhook).toMatchObject({ configured: true, endsWith: webhook.url.slice(-4), updatedByEmail: "admin@example.test" });
    expect(view.email).toMatchObject({ recipients: ["ops@example.test", "oncall@example.test"], smtpConfigured: true });
    const [row] = await db.select().from(alertChannels).where(eq(alertChannels.kind, "webhook"));
    expect(row!.webhookUrlEncrypted).not.toContain("secret-token");
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "alerts.channels_updated"));
    expect(JSON.stringify(audit)).not.toContain("secret-token");

    // Omitting the URL keeps it; the recipients are replaced.
    await saveAlertChannels({ db, actor: admin }, { recipients: ["ops@example.test", "oncall@example.test"] });
    expect((await getAlertChannelsView({ db, actor: admin })).webhook.configured).toBe(true);
  });
});

describe("alerts on status changes", () => {
  it("sends one alert on a final failure, none for retried attempts or repeated failures, one on recovery", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", name: "Alert Salon" });

    // Retried attempts that end in success: the location was never failing, nothing to say.
    await injectFault(db, { target: "batch_sync_calendars", mode: { kind: "status", status: 503 }, count: 1 });
    const first = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: first.sessionId!, ...options() })).toBe("succeeded");
    // The preview job's part: a streamed first sync leaves the location's first preview queued.
    await computeQueuedPreview(testDb.db, location.id, options().reader!, options().now);

    // A permanent fault: the session's final failure (a full resync, so that its openings are sent again).
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 502 }, count: 1000 });
    const failing = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null, full: true });
    expect(await runSession(systemContext(testDb.db), { sessionId: failing.sessionId!, ...options(failFast) })).toBe("failed");
    await waitFor(() => webhook.bodies.length === 1 && smtp.messages.length === 1, "the failure alert");
    expect(textsOf()[0]).toMatch(/^Sync failed: Alert Salon \(staging\)\. The last sync failed at openings: .*502.*\/sessions\//);
    expect(smtp.messages[0]!.to).toEqual(["ops@example.test", "oncall@example.test"]);
    expect(smtp.messages[0]!.data).toContain("Subject: Sync failed: Alert Salon (staging)");

    // Failing again (resume still failing): still the same status, no second alert.
    const stillFailing = await resumeSession({ db, actor: systemActor }, { sessionId: failing.sessionId! });
    expect(await runSession(systemContext(testDb.db), { sessionId: stillFailing.sessionId!, ...options(failFast) })).toBe("failed");

    await clearFaults(db);
    const recovered = await resumeSession({ db, actor: systemActor }, { sessionId: stillFailing.sessionId! });
    expect(await runSession(systemContext(testDb.db), { sessionId: recovered.sessionId!, ...options() })).toBe("succeeded");
    await waitFor(() => webhook.bodies.length === 2 && smtp.messages.length === 2, "the recovery alert");
    expect(textsOf()[1]).toMatch(/^Sync recovered: Alert Salon \(staging\)\. The latest sync session succeeded\./);
    expect(webhook.bodies[1]).toMatchObject({ blocks: [{ type: "section" }] });

    await waitFor(allDelivered, "every alert marked delivered");
    const events = await db
      .select({ kind: alertEvents.kind })
      .from(alertEvents)
      .where(eq(alertEvents.locationId, location.id))
      .orderBy(alertEvents.createdAt);
    expect(events.map((event) => event.kind)).toEqual(["failed", "recovered"]);
    expect(webhook.bodies).toHaveLength(2);
    expect(smtp.messages).toHaveLength(2);
  });

  it("retries a webhook that failed, without sending the email again", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", name: "Retry Salon" });
    webhook.respondWith.status = 500;
    const before = { hooks: webhook.bodies.length, mails: smtp.messages.length };
    await injectFault(db, { target: "batch_sync_openings", mode: { kind: "status", status: 502 }, count: 1000 });
    const failing = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: failing.sessionId!, ...options(failFast) })).toBe("failed");
    await waitFor(
      async () => (await db.select().from(alertEvents).where(eq(alertEvents.locationId, location.id)))[0]?.lastError != null,
      "a failed delivery",
    );
    webhook.respondWith.status = 200;
    await waitFor(() => webhook.bodies.length === before.hooks + 1, "the retried webhook", 30_000);
    await waitFor(allDelivered, "the alert marked delivered");
    expect(smtp.messages.length).toBe(before.mails + 1);
  });
});

// Last: its webhook body would otherwise be among the ones the tests above count.
describe("alert channels after a lost key", () => {
  it("a webhook URL sealed under a key that is gone: shown as set but unreadable; an alert is still e-mailed and waits for the URL to be entered again", async () => {
    await saveAlertChannels({ db, actor: admin }, { webhookUrl: webhook.url, recipients: ["ops@example.test"] });
    const location = await createConnectedLocation(db, setup, { sourceKey: "array", name: "Lost Key Salon" });
    const [event] = await db.insert(alertEvents).values({ locationId: location.id, kind: "failed", reason: "The last sync failed." }).returning();
    const before = { hooks: webhook.bodies.length, mails: smtp.messages.length };
    const original = process.env.APP_SECRET_KEY;
    process.env.APP_SECRET_KEY = generateSecretKey();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect((await getAlertChannelsView({ db, actor: admin })).webhook).toMatchObject({ configured: true, unreadable: true, endsWith: null });
      await expect(deliverAlert(systemContext(db), { eventId: event!.id })).rejects.toThrow(WEBHOOK_UNREADABLE);
      expect(smtp.messages.length).toBe(before.mails + 1);
      expect(webhook.bodies.length).toBe(before.hooks);
      const [failed] = await db.select().from(alertEvents).where(eq(alertEvents.id, event!.id));
      expect(failed).toMatchObject({ deliveredAt: null, webhookDeliveredAt: null, lastError: WEBHOOK_UNREADABLE });
      expect(failed!.emailDeliveredAt).not.toBeNull();

      // Entered again under the current key: the next attempt sends the webhook alone.
      await saveAlertChannels({ db, actor: admin }, { webhookUrl: webhook.url, recipients: ["ops@example.test"] });
      await deliverAlert(systemContext(db), { eventId: event!.id });
      expect(webhook.bodies.length).toBe(before.hooks + 1);
      expect(smtp.messages.length).toBe(before.mails + 1);
    } finally {
      warn.mockRestore();
      if (original === undefined) delete process.env.APP_SECRET_KEY;
      else process.env.APP_SECRET_KEY = original;
    }
  });
});
