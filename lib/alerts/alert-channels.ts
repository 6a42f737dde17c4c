import type { DatabaseOrTransaction } from "@/db/client";
import { alertChannels } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import { alertWebhookUrlContext } from "@/lib/crypto/encrypted-columns";
import { openSecret, sealSecret, SecretBoxError } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import type { AlertChannelsInput, AlertChannelsView } from "./alert-channel-inputs";
import { smtpConfigured } from "./send-alert-email";
import { checkWebhookTarget, WebhookTargetError } from "./webhook-target";

type ChannelRow = typeof alertChannels.$inferSelect;

async function channelRows(db: DatabaseOrTransaction): Promise<{ webhook?: ChannelRow; email?: ChannelRow }> {
  const rows = await db.select().from(alertChannels);
  return { webhook: rows.find((row) => row.kind === "webhook"), email: rows.find((row) => row.kind === "email") };
}

export const WEBHOOK_UNREADABLE =
  "The alert webhook URL cannot be decrypted with the current encryption keys: an admin enters it again under Settings → Alerts.";

/**
 * Where alerts go, opened for sending (the webhook URL in clear). Server-side only. A URL sealed under a key that is gone
 * (`webhookUnreadable`) is logged with the key's id, never its value, and the e-mail still goes.
 */
export async function loadAlertTargets(
  db: DatabaseOrTransaction,
): Promise<{ webhookUrl: string | null; webhookUnreadable: boolean; recipients: string[] }> {
  const { webhook, email } = await channelRows(db);
  const sealed = webhook?.webhookUrlEncrypted;
  const recipients = email?.recipients ?? [];
  if (!sealed) return { webhookUrl: null, webhookUnreadable: false, recipients };
  try {
    return { webhookUrl: openSecret(sealed, alertWebhookUrlContext), webhookUnreadable: false, recipients };
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    console.warn(`[alerts] ${error.message}`);
    return { webhookUrl: null, webhookUnreadable: true, recipients };
  }
}

/** Where alerts go, as Settings → Alerts shows it (the webhook URL only by its last characters): admins only. */
export async function getAlertChannelsView(ctx: OperationContext<Actor>): Promise<AlertChannelsView> {
  assertCan(ctx.actor, "alerts.manage");
  return readAlertChannelsView(ctx.db);
}

async function readAlertChannelsView(db: DatabaseOrTransaction): Promise<AlertChannelsView> {
  const { webhook, email } = await channelRows(db);
  const { webhookUrl, webhookUnreadable } = await loadAlertTargets(db);
  return {
    webhook: {
      configured: webhookUrl !== null || webhookUnreadable,
      unreadable: webhookUnreadable,
      endsWith: webhookUrl ? webhookUrl.slice(-4) : null,
      updatedAt: webhook?.updatedAt.toISOString() ?? null,
      updatedByEmail: webhook?.updatedByEmail ?? null,
    },
    email: {
      recipients: email?.recipients ?? [],
      smtpConfigured: smtpConfigured(),
      updatedAt: email?.updatedAt.toISOString() ?? null,
      updatedByEmail: email?.updatedByEmail ?? null,
    },
  };
}

/** Saves the channels (admin). The audit entry says what changed, never the URL. */
export async function saveAlertChannels(ctx: OperationContext, input: AlertChannelsInput): Promise<AlertChannelsView> {
  const { db, actor } = ctx;
  assertCan(actor, "alerts.manage");
  if (input.webhookUrl) {
    try {
      await checkWebhookTarget(input.webhookUrl);
    } catch (error) {
      if (!(error instanceof WebhookTargetError)) throw error;
      throw new DomainError("INVALID", `webhookUrl: ${error.message}`, [{ field: "webhookUrl", reason: error.message }]);
    }
  }
  await db.transaction(async (tx) => {
    const now = nowOf(ctx);
    const changed: string[] = [];
    if (input.webhookUrl !== undefined) {
      const webhookUrlEncrypted = input.webhookUrl === null ? null : sealSecret(input.webhookUrl, alertWebhookUrlContext);
      await tx
        .insert(alertChannels)
        .values({ kind: "webhook", webhookUrlEncrypted, updatedAt: now, updatedByEmail: actor.email })
        .onConflictDoUpdate({ target: alertChannels.kind, set: { webhookUrlEncrypted, updatedAt: now, updatedByEmail: actor.email } });
      changed.push(input.webhookUrl === null ? "webhook removed" : "webhook set");
    }
    const recipients = [...new Set(input.recipients.map((address) => address.toLowerCase()))];
    await tx
      .insert(alertChannels)
      .values({ kind: "email", recipients, updatedAt: now, updatedByEmail: actor.email })
      .onConflictDoUpdate({ target: alertChannels.kind, set: { recipients, updatedAt: now, updatedByEmail: actor.email } });
    await recordAuditEvent(tx, {
      actor,
      action: "alerts.channels_updated",
      target: { type: "alert_channels", id: "alerts" },
      details: { changed, recipients },
    });
  });
  return readAlertChannelsView(db);
}
