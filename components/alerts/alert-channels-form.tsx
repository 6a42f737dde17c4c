"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AlertChannelsView } from "@/lib/alerts/alert-channel-inputs";
import { useApiMutation } from "@/components/queries/use-api-mutation";

function splitRecipients(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter(Boolean);
}

/** Field errors of the list come back as recipients.0, recipients.1 …: show them on the one field. */
function groupFieldErrors(errors: Record<string, string>): Record<string, string> {
  const grouped: Record<string, string> = {};
  for (const [field, reason] of Object.entries(errors)) {
    const [head, index] = field.split(".");
    const key = head ?? field;
    const message = index !== undefined ? `Address ${Number(index) + 1}: ${reason}` : reason;
    grouped[key] = grouped[key] ? `${grouped[key]} ${message}` : message;
  }
  return grouped;
}

export function AlertChannelsForm({ channels }: { channels: AlertChannelsView }) {
  const router = useRouter();
  const saveChannels = useApiMutation<{ channels: AlertChannelsView }>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  async function save(body: { webhookUrl?: string | null; recipients: string[] }, form?: HTMLFormElement) {
    setPending(true);
    setSaved(false);
    const result = await saveChannels.mutateAsync({ method: "PUT", url: "/api/alerts/channels", body });
    setPending(false);
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(groupFieldErrors(result.fieldErrors));
      return;
    }
    setError(null);
    setFieldErrors({});
    setSaved(true);
    // The URL never stays in the page once saved.
    const input = form?.elements.namedItem("webhookUrl");
    if (input instanceof HTMLInputElement) input.value = "";
    router.refresh();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const webhookUrl = String(form.get("webhookUrl") ?? "").trim();
    // Empty = keep the stored URL.
    await save({ ...(webhookUrl && { webhookUrl }), recipients: splitRecipients(String(form.get("recipients") ?? "")) }, event.currentTarget);
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Webhook</CardTitle>
          <CardDescription>
            A Slack-compatible incoming webhook: we POST <code>{"{ text, blocks }"}</code> once when a location&apos;s sync fails for good and once
            when it recovers.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <p className="text-sm" data-testid="webhook-status">
            {channels.webhook.unreadable ? (
              <Badge tone="danger">set · cannot be decrypted with the current keys: enter it again</Badge>
            ) : channels.webhook.configured ? (
              <>
                <Badge tone="success">set</Badge> URL ends in <code>{channels.webhook.endsWith}</code>
                {channels.webhook.updatedByEmail ? <span className="text-slate-600"> · by {channels.webhook.updatedByEmail}</span> : null}
              </>
            ) : (
              <Badge>not set</Badge>
            )}
          </p>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="alerts-webhook-url">{channels.webhook.configured ? "Replace the URL" : "Webhook URL"}</Label>
            <Input
              id="alerts-webhook-url"
              name="webhookUrl"
              type="url"
              autoComplete="off"
              placeholder="https://hooks.slack.com/services/…"
              aria-invalid={fieldErrors.webhookUrl ? true : undefined}
              aria-describedby={fieldErrors.webhookUrl ? "alerts-webhook-url-error" : undefined}
            />
            <FieldError id="alerts-webhook-url-error" message={fieldErrors.webhookUrl} />
            <p className="text-xs text-slate-600">
              Stored encrypted; only its last 4 characters are shown again. Leave empty to keep the current one.
            </p>
          </div>
          {channels.webhook.configured ? (
            <div>
              <Button
                variant="secondary"
                size="sm"
                disabled={pending}
                onClick={() => void save({ webhookUrl: null, recipients: channels.email.recipients })}
              >
                Remove webhook
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Email</CardTitle>
          <CardDescription>The same alerts by email, through the server&apos;s SMTP_URL.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {channels.email.smtpConfigured ? null : (
            <Alert tone="info" data-testid="smtp-not-configured">
              Email is not configured on this server (SMTP_URL is not set): recipients are kept but no email is sent.
            </Alert>
          )}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="alerts-recipients">Recipients</Label>
            <textarea
              id="alerts-recipients"
              name="recipients"
              rows={3}
              defaultValue={channels.email.recipients.join("\n")}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 aria-[invalid=true]:border-red-600"
              aria-invalid={fieldErrors.recipients ? true : undefined}
              aria-describedby={fieldErrors.recipients ? "alerts-recipients-error alerts-recipients-hint" : "alerts-recipients-hint"}
            />
            <p id="alerts-recipients-hint" className="text-xs text-slate-600">
              One address per line (or separated by commas).
            </p>
            <FieldError id="alerts-recipients-error" message={fieldErrors.recipients} />
          </div>
        </CardContent>
      </Card>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {saved ? <Alert tone="success">Alert channels saved.</Alert> : null}
      <div>
        <Button type="submit" disabled={pending}>
          Save alert channels
        </Button>
      </div>
    </form>
  );
}
