import { z } from "zod";

const WebhookUrl = z.url({ protocol: /^https?$/, error: "Enter an http(s) URL" }).max(2000, "Keep the URL under 2000 characters");

/** PUT /api/alerts/channels and the settings form. `webhookUrl`: omitted = keep, null = remove. */
export const AlertChannelsInput = z.object({
  webhookUrl: WebhookUrl.nullable().optional(),
  recipients: z.array(z.email("Enter valid email addresses").max(320)).max(20, "At most 20 recipients"),
});
export type AlertChannelsInput = z.infer<typeof AlertChannelsInput>;

/** What the settings page shows: never the webhook URL itself, only its last 4 characters. */
export interface AlertChannelsView {
  /** `unreadable`: set, but sealed under an encryption key that is gone (an admin enters it again). */
  webhook: { configured: boolean; unreadable: boolean; endsWith: string | null; updatedAt: string | null; updatedByEmail: string | null };
  email: { recipients: string[]; smtpConfigured: boolean; updatedAt: string | null; updatedByEmail: string | null };
}
