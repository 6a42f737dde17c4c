import nodemailer from "nodemailer";
import { getConfig } from "@/lib/config/config";
import type { AlertMessage } from "./alert-message";

export function smtpConfigured(): boolean {
  return Boolean(getConfig().SMTP_URL);
}

/** Sends one alert to every recipient through SMTP_URL (e.g. smtp://user:pass@mail.example.com:587). */
export async function sendAlertEmail(recipients: string[], message: AlertMessage): Promise<void> {
  const { SMTP_URL: url, ALERT_EMAIL_FROM: from } = getConfig();
  if (!url) throw new Error("SMTP_URL is not set: email alerts are not configured.");
  const transport = nodemailer.createTransport(url);
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
