"use client";

import { pluralize } from "@/lib/format/plural";
import { productionDestinationWarning } from "@/lib/environments/destination-warning";
import { Time } from "@/components/time/time";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { EnvironmentView, SecretStatus } from "@/lib/environments/environment-inputs";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { TestCredentialsDialog } from "./test-credentials-dialog";

const titles = { staging: "Staging", production: "Production" } as const;

function splitHosts(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((host) => host.trim())
    .filter(Boolean);
}

/** Field errors of the list come back as uploadHosts.0, uploadHosts.1 …: show them on the one field. */
function groupFieldErrors(errors: Record<string, string>): Record<string, string> {
  const grouped: Record<string, string> = {};
  for (const [field, reason] of Object.entries(errors)) {
    const [head, index] = field.split(".");
    const key = head ?? field;
    const message = index !== undefined ? `Host ${Number(index) + 1}: ${reason}` : reason;
    grouped[key] = grouped[key] ? `${grouped[key]} ${message}` : message;
  }
  return grouped;
}

/** scheme://host[:port] of a typed URL, or null while it is not one. */
function originOrNull(value: string | null): string | null {
  try {
    return value ? new URL(value.trim()).origin : null;
  } catch {
    return null;
  }
}

type EnvironmentPayload = Record<string, unknown>;

export function EnvironmentForm({ environment }: { environment: EnvironmentView }) {
  const router = useRouter();
  const saveEnvironment = useApiMutation<{ environment: EnvironmentView }>();
  const id = (field: string) => `${environment.name}-${field}`;
  const storedHosts = environment.uploadHosts.join("\n");
  const [baseUrl, setBaseUrl] = useState(environment.baseUrl ?? "");
  const [uploadHosts, setUploadHosts] = useState(storedHosts);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const [addressDialogOpen, setAddressDialogOpen] = useState(false);
  // Held only while the admin decides in the dialog (it may hold secrets typed into the form).
  const awaitingDecision = useRef<{ payload: EnvironmentPayload; form: HTMLFormElement } | null>(null);

  // Mirrors the server's rule: a stored secret is never sent to a newly typed host.
  const destinationChanged = baseUrl.trim() !== (environment.baseUrl ?? "") || splitHosts(uploadHosts).join("\n") !== storedHosts;
  const secretsRequired = destinationChanged || !environment.apiKey.set || !environment.clientSecret.set;
  // Tokens go only to the address that issued them: a new origin needs the admin's word on where the service is.
  const storedOrigin = originOrNull(environment.baseUrl);
  const typedOrigin = originOrNull(baseUrl);
  const addressMoves = storedOrigin !== null && typedOrigin !== null && typedOrigin !== storedOrigin && environment.connectedLocations > 0;
  const destinationWarning = productionDestinationWarning(environment.name, baseUrl);
  const locationCount = pluralize(environment.connectedLocations, "connected location");

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "");
    const apiKey = text("apiKey");
    const clientSecret = text("clientSecret");
    const payload: EnvironmentPayload = {
      baseUrl: text("baseUrl"),
      uploadHosts: splitHosts(text("uploadHosts")),
      clientId: text("clientId"),
      dataSourceName: text("dataSourceName"),
      dateTimeStyle: text("dateTimeStyle") === "rfc3339" ? "rfc3339" : "spec",
      // Empty = keep the stored secret.
      ...(apiKey && { apiKey }),
      ...(clientSecret && { clientSecret }),
    };
    if (addressMoves) {
      awaitingDecision.current = { payload, form: formElement };
      setAddressDialogOpen(true);
      return;
    }
    await save(payload, formElement);
  }

  async function decideAddress(tokensMoveToNewAddress: boolean | null) {
    const decision = awaitingDecision.current;
    awaitingDecision.current = null;
    setAddressDialogOpen(false);
    if (decision && tokensMoveToNewAddress !== null) await save({ ...decision.payload, tokensMoveToNewAddress }, decision.form);
  }

  async function save(payload: EnvironmentPayload, formElement: HTMLFormElement) {
    setPending(true);
    setSaved(false);
    const result = await saveEnvironment.mutateAsync({ method: "PUT", url: `/api/environments/${environment.name}`, body: payload });
    setPending(false);
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(groupFieldErrors(result.fieldErrors));
      return;
    }
    setError(null);
    setFieldErrors({});
    setSaved(true);
    // Secrets never stay in the page once saved.
    for (const name of ["apiKey", "clientSecret"]) {
      const input = formElement.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
    setBaseUrl(result.data.environment.baseUrl ?? "");
    setUploadHosts(result.data.environment.uploadHosts.join("\n"));
    router.refresh();
  }

  const textField = (field: "clientId" | "dataSourceName", label: string, defaultValue: string | null) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id(field)}>{label}</Label>
      <Input
        id={id(field)}
        name={field}
        defaultValue={defaultValue ?? ""}
        required
        autoComplete="off"
        aria-invalid={Boolean(fieldErrors[field])}
        aria-describedby={id(`${field}-error`)}
      />
      <FieldError id={id(`${field}-error`)} message={fieldErrors[field]} />
    </div>
  );

  const secretField = (field: "apiKey" | "clientSecret", label: string, status: SecretStatus) => (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id(field)}>{label}</Label>
        <span id={id(`${field}-status`)} className="text-xs text-slate-600">
          {status.set ? status.hint : "not set"}
        </span>
      </div>
      <Input
        id={id(field)}
        name={field}
        type="password"
        defaultValue=""
        autoComplete="new-password"
        required={secretsRequired}
        aria-invalid={Boolean(fieldErrors[field])}
        aria-describedby={`${id(`${field}-status`)} ${id(`${field}-help`)} ${id(`${field}-error`)}`}
      />
      <p id={id(`${field}-help`)} className="text-xs text-slate-600">
        {secretsRequired ? (status.set ? "Required: re-enter it for the new address." : "Required.") : "Leave empty to keep the stored value."}
      </p>
      <FieldError id={id(`${field}-error`)} message={fieldErrors[field]} />
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <CardTitle>{titles[environment.name]}</CardTitle>
            {environment.configured ? <Badge tone="success">Configured</Badge> : <Badge tone="warning">Not configured</Badge>}
          </div>
          {/* Outside the form: it tests the saved settings, and its own form must not submit this one. */}
          <TestCredentialsDialog name={environment.name} title={titles[environment.name]} disabled={!environment.configured} />
        </div>
        <CardDescription>
          {environment.updatedBy ? (
            <>
              Last changed <Time value={environment.updatedAt} timeZone="UTC" /> by {environment.updatedBy}.
            </>
          ) : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {saved ? <Alert tone="success">Saved {titles[environment.name].toLowerCase()} settings.</Alert> : null}
        <form onSubmit={onSubmit} noValidate aria-label={`${titles[environment.name]} environment`} className="grid gap-4 md:grid-cols-2">
          <div className="flex flex-col gap-1.5 md:col-span-2">
            <Label htmlFor={id("baseUrl")}>Base URL</Label>
            <Input
              id={id("baseUrl")}
              name="baseUrl"
              type="url"
              inputMode="url"
              placeholder="https://api.example.com"
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              required
              aria-invalid={Boolean(fieldErrors.baseUrl)}
              aria-describedby={id("baseUrl-error")}
            />
            <FieldError id={id("baseUrl-error")} message={fieldErrors.baseUrl} />
            {destinationWarning ? (
              <p
                role="note"
                data-testid="production-destination-warning"
                className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950"
              >
                {destinationWarning}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col gap-1.5 md:col-span-2">
            <Label htmlFor={id("uploadHosts")}>Upload hosts</Label>
            <textarea
              id={id("uploadHosts")}
              name="uploadHosts"
              rows={2}
              value={uploadHosts}
              onChange={(event) => setUploadHosts(event.target.value)}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 aria-[invalid=true]:border-red-600"
              aria-invalid={Boolean(fieldErrors.uploadHosts)}
              aria-describedby={`${id("uploadHosts-help")} ${id("uploadHosts-error")}`}
            />
            <p id={id("uploadHosts-help")} className="text-xs text-slate-600">
              Hosts the upstream&apos;s upload addresses may point to, one per line (e.g. uploads.example.com, host:8443, or *.example.com for its
              subdomains).
            </p>
            <FieldError id={id("uploadHosts-error")} message={fieldErrors.uploadHosts} />
          </div>
          {textField("clientId", "Client ID", environment.clientId)}
          {textField("dataSourceName", "Data source name", environment.dataSourceName)}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id("dateTimeStyle")}>Date-time form</Label>
            <Select
              id={id("dateTimeStyle")}
              name="dateTimeStyle"
              defaultValue={environment.dateTimeStyle}
              aria-describedby={`${id("dateTimeStyle-help")} ${id("dateTimeStyle-error")}`}
            >
              <option value="spec">The spec&apos;s form: 2026-03-10T09:00:00Z+01:00</option>
              <option value="rfc3339">Plain RFC 3339: 2026-03-10T09:00:00+01:00</option>
            </Select>
            <p id={id("dateTimeStyle-help")} className="text-xs text-slate-600">
              How appointments&apos; and openings&apos; times are written. A change re-sends every appointment and opening with the next sync.
            </p>
            <FieldError id={id("dateTimeStyle-error")} message={fieldErrors.dateTimeStyle} />
          </div>
          {destinationChanged && (environment.apiKey.set || environment.clientSecret.set) ? (
            <Alert tone="info" className="md:col-span-2">
              The base URL or upload hosts changed: re-enter the API key and client secret, so stored credentials are never sent to a newly typed
              host.
            </Alert>
          ) : null}
          {addressMoves ? (
            <Alert tone="info" className="md:col-span-2">
              The service address changes from {storedOrigin} to {typedOrigin}. The tokens of {locationCount} were issued by {storedOrigin} and are
              sent nowhere else unless you confirm, when saving, that the service itself moved.
            </Alert>
          ) : null}
          {secretField("apiKey", "API key", environment.apiKey)}
          {secretField("clientSecret", "Client secret", environment.clientSecret)}
          <div className="md:col-span-2">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : `Save ${titles[environment.name].toLowerCase()}`}
            </Button>
          </div>
        </form>
        <AlertDialog open={addressDialogOpen} onOpenChange={(open) => (open ? setAddressDialogOpen(true) : void decideAddress(null))}>
          <AlertDialogContent className="max-w-lg">
            <AlertDialogTitle>Did the service itself move?</AlertDialogTitle>
            <AlertDialogDescription>
              <div className="flex flex-col gap-2">
                <p>
                  {locationCount} hold{environment.connectedLocations === 1 ? "s a token" : " tokens"} issued by {storedOrigin}. A token is only ever
                  sent to the address that issued it.
                </p>
                <p>
                  If the Marketing Automation Service itself moved to {typedOrigin}, the tokens of {locationCount} will be sent to the new address.
                  Otherwise those locations show &ldquo;Reconnect needed&rdquo; until their owners reconnect them.
                </p>
              </div>
            </AlertDialogDescription>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant="secondary" onClick={() => void decideAddress(false)}>
                Save; owners reconnect
              </AlertDialogAction>
              <AlertDialogAction onClick={() => void decideAddress(true)}>The service moved: send the tokens there</AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
