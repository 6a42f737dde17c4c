import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface WebhookReceiver {
  url: string;
  bodies: unknown[];
  /** Answer with this status (e.g. 500 to make delivery fail) until changed. */
  respondWith: { status: number };
  close: () => Promise<void>;
}

/** A Slack-like webhook endpoint on 127.0.0.1 (free port) that keeps every JSON body it accepted. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: unknown[] = [];
  const respondWith = { status: 200 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (respondWith.status < 300) bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      response.writeHead(respondWith.status).end(respondWith.status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/secret-token`,
    bodies,
    respondWith,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface SmtpReceiver {
  url: string;
  messages: { to: string[]; data: string }[];
  close: () => Promise<void>;
}

/** A local SMTP server (no TLS, no auth) that keeps every message. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: { to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((address) => address.address), data: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
