import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { alertChannels, alertEvents, locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { systemContext } from "@/lib/operations/context";
import { alertWebhookUrlContext } from "@/lib/crypto/encrypted-columns";
import { sealSecret } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors/domain-error";
import { getAlertChannelsView, saveAlertChannels } from "./alert-channels";
import { buildAlertMessage, escapeSlackText } from "./alert-message";
import { deliverAlert } from "./deliver-alert";
import { startWebhookReceiver, type WebhookReceiver } from "./testing/alert-receivers";
import { isPublicAddress } from "./webhook-target";

// Alert webhooks: values are escaped for Slack, and a webhook reaches only public addresses unless a setting allows others.
const testDb = await useTestDatabase();
const { db } = testDb;
const admin = systemActorAs("admin@example.test");
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  delete process.env.ALERT_WEBHOOK_ALLOW_PRIVATE;
  receiver.bodies.length = 0;
});

const markup = "<!channel> <https://phish.example/login|Open the session> & <@U123>";

async function failedAlert(locationName: string, reason: string) {
  const [location] = await db.insert(locations).values({ name: locationName }).returning();
  const [event] = await db.insert(alertEvents).values({ locationId: location!.id, kind: "failed", reason }).returning();
  return event!.id;
}

/** Stores the webhook URL as a save that was allowed would have. */
async function storeWebhook(url: string) {
  const webhookUrlEncrypted = sealSecret(url, alertWebhookUrlContext);
  await db
    .insert(alertChannels)
    .values({ kind: "webhook", webhookUrlEncrypted, updatedByEmail: admin.email })
    .onConflictDoUpdate({ target: alertChannels.kind, set: { webhookUrlEncrypted } });
}

describe("Slack markup", () => {
  it("escapes &, < and > in the location name and the upstream's error; the email stays plain text", () => {
    const message = buildAlertMessage({
      kind: "failed",
      locationId: "l-1",
      locationName: `Salon ${markup}`,
      environment: "staging",
      sessionId: "s-1",
      reason: `Upstream said ${markup}`,
    });
    const slack = JSON.stringify(message.slack);
    expect(slack).not.toMatch(/<!channel>|<https:\/\/phish|<@U123>| & /);
    expect(message.slack.text).toContain(`Sync failed: Salon ${escapeSlackText(markup)} (staging). Upstream said ${escapeSlackText(markup)}`);
    expect(escapeSlackText(markup)).toBe("&lt;!channel&gt; &lt;https://phish.example/login|Open the session&gt; &amp; &lt;@U123&gt;");
    // Our own link stays a link.
    expect(message.slack.blocks[0]!.text.text).toMatch(/\n<http:\/\/[^|]+\/sessions\/s-1\|Open the session>$/);
    expect(message.subject).toBe(`Sync failed: Salon ${markup} (staging)`);
  });

  it("says how many records a recovering session left out, and nothing about it when it sent everything", () => {
    const facts = { kind: "recovered" as const, locationId: "l-1", locationName: "Salon", environment: "staging", sessionId: "s-1", reason: null };
    expect(buildAlertMessage({ ...facts, recordsNotSent: 365 }).text).toContain(
      "Sync recovered: Salon (staging). The latest sync session succeeded with 365 not sent: the session lists them and why.",
    );
    expect(buildAlertMessage({ ...facts, recordsNotSent: 0 }).text).toContain("Sync recovered: Salon (staging). The latest sync session succeeded. ");
  });

  it("delivers the escaped text to the webhook", async () => {
    process.env.ALERT_WEBHOOK_ALLOW_PRIVATE = "true";
    await storeWebhook(receiver.url);
    await deliverAlert(systemContext(db), { eventId: await failedAlert(`Salon ${markup}`, markup) });
    expect(receiver.bodies).toHaveLength(1);
    const delivered = JSON.stringify(receiver.bodies[0]);
    expect(delivered).toContain("&lt;!channel&gt;");
    expect(delivered).not.toMatch(/<!channel>|<https:\/\/phish|<@U123>/);
  });
});

describe("webhook targets", () => {
  it.each([
    ["169.254.169.254", false],
    ["10.1.2.3", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["127.0.0.1", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd12:3456::1", false],
    ["ff02::1", false],
    ["::ffff:169.254.169.254", false],
    ["::ffff:7f00:1", false],
    ["93.184.215.14", true],
    ["2606:4700:4700::1111", true],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("refuses a loopback, private or link-local target when the channel is saved, and keeps the stored one", async () => {
    const before = await getAlertChannelsView({ db, actor: admin });
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      `${receiver.url}`,
      "http://[::1]:8080/hook",
      "http://localhost:9/hook",
      "https://10.0.0.8/hook",
    ]) {
      const error = await saveAlertChannels({ db, actor: admin }, { webhookUrl: url, recipients: [] }).catch((thrown: unknown) => thrown);
      expect(error, url).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: "INVALID",
        fields: [{ field: "webhookUrl", reason: expect.stringMatching(/loopback, private or link-local/) }],
      });
    }
    expect(await getAlertChannelsView({ db, actor: admin })).toEqual(before);
  });

  it("checks the resolved address when it sends: a stored 127.0.0.1 target gets nothing without the setting", async () => {
    await storeWebhook(receiver.url);
    const eventId = await failedAlert("Plain Salon", "The last sync failed.");
    await expect(deliverAlert(systemContext(db), { eventId })).rejects.toThrow(/loopback, private or link-local/);
    expect(receiver.bodies).toEqual([]);

    // A host name is resolved by the connection itself, and the address it resolved to is the one checked.
    await storeWebhook(receiver.url.replace("127.0.0.1", "localhost"));
    await expect(deliverAlert(systemContext(db), { eventId })).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1), a loopback/);
    expect(receiver.bodies).toEqual([]);
    const [event] = await db.select().from(alertEvents).where(eq(alertEvents.id, eventId));
    expect(event!.deliveredAt).toBeNull();
    expect(event!.lastError).not.toContain("secret-token");

    process.env.ALERT_WEBHOOK_ALLOW_PRIVATE = "true";
    await deliverAlert(systemContext(db), { eventId });
    expect(receiver.bodies).toHaveLength(1);
  });
});
