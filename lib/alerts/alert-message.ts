import { getConfig } from "@/lib/config/config";

export interface AlertFacts {
  kind: "failed" | "recovered";
  locationId: string;
  locationName: string;
  environment: string;
  sessionId: string | null;
  reason: string | null;
  /** Records the recovering session left out (invalid or excluded by rule); absent or 0 when it sent everything. */
  recordsNotSent?: number;
}

/** The body of a Slack-compatible incoming webhook: `text` and mrkdwn blocks, both parsed for Slack markup. */
export interface SlackMessage {
  text: string;
  blocks: { type: "section"; text: { type: "mrkdwn"; text: string } }[];
}

export interface AlertMessage {
  /** Plain text (the email subject and body, sent as text/plain). */
  subject: string;
  text: string;
  /** The same words for the webhook, with every value escaped for Slack. */
  slack: SlackMessage;
}

function appOrigin(): string {
  const config = getConfig();
  return config.APP_ORIGIN ?? config.NEXTAUTH_URL ?? "http://localhost:3000";
}

/**
 * Slack reads `<…>` as links and mentions (`<!channel>`, `<https://x|text>`) and `&` as an entity: the three are
 * escaped in everything we did not write ourselves (https://api.slack.com/reference/surfaces/formatting#escaping).
 */
export function escapeSlackText(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** The words of an alert, the same for webhook and email. */
export function buildAlertMessage(facts: AlertFacts): AlertMessage {
  const where = `${facts.locationName} (${facts.environment})`;
  const link = `${appOrigin()}/${facts.sessionId ? `sessions/${facts.sessionId}` : `locations/${facts.locationId}`}`;
  const headline = facts.kind === "failed" ? "Sync failed" : "Sync recovered";
  const subject = `${headline}: ${where}`;
  const notSent = facts.recordsNotSent ?? 0;
  const detail =
    facts.kind === "failed"
      ? (facts.reason ?? "The sync session failed.")
      : notSent > 0
        ? `The latest sync session succeeded with ${notSent.toLocaleString("en")} not sent: the session lists them and why.`
        : "The latest sync session succeeded.";
  const slackSubject = `${headline}: ${escapeSlackText(where)}`;
  const slackDetail = escapeSlackText(detail);
  const slackLink = escapeSlackText(link);
  return {
    subject,
    text: `${subject}. ${detail} ${link}`,
    slack: {
      text: `${slackSubject}. ${slackDetail} ${slackLink}`,
      blocks: [{ type: "section", text: { type: "mrkdwn", text: `*${slackSubject}*\n${slackDetail}\n<${slackLink}|Open the session>` } }],
    },
  };
}
