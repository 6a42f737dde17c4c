import { request } from "undici";
import type { SlackMessage } from "./alert-message";
import { checkLiteralWebhookAddress, createWebhookDispatcher } from "./webhook-target";

const TIMEOUT_MS = 10_000;

/**
 * Posts a Slack-compatible `{ text, blocks }` body; anything but 2xx is an error (the job retries). The target is
 * checked on the address actually connected to (lib/alerts/webhook-target.ts); redirects are not followed.
 */
export async function sendAlertWebhook(url: string, message: SlackMessage): Promise<void> {
  // The URL may hold a token: errors name only the host.
  const { host } = new URL(url);
  checkLiteralWebhookAddress(new URL(url));
  const dispatcher = createWebhookDispatcher();
  try {
    let status: number;
    try {
      const response = await request(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(message),
        dispatcher,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      status = response.statusCode;
      await response.body.dump();
    } catch (error) {
      throw new Error(`The alert webhook at ${host} did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (status < 200 || status >= 300) throw new Error(`The alert webhook at ${host} answered ${status}.`);
  } finally {
    await dispatcher.close();
  }
}
