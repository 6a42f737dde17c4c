import type { AlertMessage } from "./alert-message";

const TIMEOUT_MS = 10_000;

/** Posts a Slack-compatible `{ text, blocks }` body; anything but 2xx is an error (the job retries). */
export async function sendAlertWebhook(url: string, message: AlertMessage): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: message.text, blocks: message.blocks }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    // The URL may hold a token: name only the host.
    throw new Error(`The alert webhook at ${new URL(url).host} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  await response.body?.cancel();
  if (!response.ok) throw new Error(`The alert webhook at ${new URL(url).host} answered ${response.status}.`);
}
