import nodemailer from "nodemailer";
import type { AlertMessage } from "./alert-message";

export function smtpConfigured(): boolean {
  return Boolean(process.env.SMTP_URL);
}

/** Sends one alert to every recipient through SMTP_URL (e.g. smtp://user:pass@mail.example.com:587). */
export async function sendAlertEmail(recipients: string[], message: AlertMessage): Promise<void> {
  const url = process.env.SMTP_URL;
  if (!url) throw new Error("SMTP_URL is not set: email alerts are not configured.");
  const transport = nodemailer.createTransport(url);
  try {
    await transport.sendMail({
      from: process.env.ALERT_EMAIL_FROM ?? "Location Sync <alerts@location-sync.invalid>",
      to: recipients,
      subject: message.subject,
      text: message.text,
    });
  } finally {
    transport.close();
  }
}
