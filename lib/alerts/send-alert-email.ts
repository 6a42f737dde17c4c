import nodemailer from "nodemailer";
import { getConfig } from "@/lib/config/config";
import type { AlertMessage } from "./alert-message";

export function smtpConfigured(): boolean {
  return Boolean(getConfig().SMTP_URL);
}

/**
 * How long a mail server may take to accept the connection, to greet, and to answer any one command. nodemailer waits
 * 10 minutes for an answer by default; alert jobs run one at a time and expire after 2, so a server that went silent
 * held up every other location's alert behind it.
 */
export const smtpTimeoutsMs = { connection: 15_000, greeting: 15_000, socket: 20_000 };

/**
 * SMTP_URL with the timeouts as query parameters, unless it names its own (nodemailer reads a connection URL's query
 * as options, and takes no other options beside a URL).
 */
function withTimeouts(url: string, timeoutsMs: typeof smtpTimeoutsMs): string {
  const given = new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?") + 1) : "");
  const added = Object.entries({
    connectionTimeout: timeoutsMs.connection,
    greetingTimeout: timeoutsMs.greeting,
    socketTimeout: timeoutsMs.socket,
  }).filter(([name]) => !given.has(name));
  if (!added.length) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(added.map(([name, ms]) => [name, String(ms)])).toString()}`;
}

/** Sends one alert to every recipient through SMTP_URL (e.g. smtp://user:pass@mail.example.com:587). */
export async function sendAlertEmail(recipients: string[], message: AlertMessage, timeoutsMs = smtpTimeoutsMs): Promise<void> {
  const { SMTP_URL: url, ALERT_EMAIL_FROM: from } = getConfig();
  if (!url) throw new Error("SMTP_URL is not set: email alerts are not configured.");
  const transport = nodemailer.createTransport(withTimeouts(url, timeoutsMs));
  try {
    await transport.sendMail({
      from,
      to: recipients,
      subject: message.subject,
      text: message.text,
    });
  } finally {
    transport.close();
  }
}
