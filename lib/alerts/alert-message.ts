export interface AlertFacts {
  kind: "failed" | "recovered";
  locationId: string;
  locationName: string;
  environment: string;
  sessionId: string | null;
  reason: string | null;
}

export interface AlertMessage {
  subject: string;
  text: string;
  blocks: { type: "section"; text: { type: "mrkdwn"; text: string } }[];
}

function appOrigin(): string {
  return process.env.APP_ORIGIN ?? process.env.NEXTAUTH_URL ?? "http://localhost:3000";
}

/** The words of an alert, the same for webhook and email. */
export function buildAlertMessage(facts: AlertFacts): AlertMessage {
  const where = `${facts.locationName} (${facts.environment})`;
  const link = `${appOrigin()}/${facts.sessionId ? `sessions/${facts.sessionId}` : `locations/${facts.locationId}`}`;
  const subject = facts.kind === "failed" ? `Sync failed: ${where}` : `Sync recovered: ${where}`;
  const detail = facts.kind === "failed" ? (facts.reason ?? "The sync session failed.") : "The latest sync session succeeded.";
  const text = `${subject}. ${detail} ${link}`;
  return { subject, text, blocks: [{ type: "section", text: { type: "mrkdwn", text: `*${subject}*\n${detail}\n<${link}|Open the session>` } }] };
}
