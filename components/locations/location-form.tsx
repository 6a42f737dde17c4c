"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { environmentNames } from "@/lib/environments/environment-inputs";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";
import type { LocationView } from "@/lib/locations/get-location";
import type { CountryOption } from "@/lib/locations/location-form-options";
import { LocationInput, SYNC_WINDOW, type LocationFormValues } from "@/lib/locations/location-inputs";

type Field = keyof LocationFormValues;

export interface LocationFormProps {
  /** Absent: a new location. */
  location?: { id: string; connected: boolean; values: LocationFormValues };
  timeZones: string[];
  countries: CountryOption[];
}

const environmentLabels = { staging: "Staging", production: "Production" } as const;
const fieldOrder: Field[] = ["name", "timeZone", "country", "environment", "upstreamLocationId", "sourceKey", "automotive", "syncTime"];
const emptyValues: LocationFormValues = {
  name: "",
  timeZone: "",
  country: "US",
  environment: "staging",
  upstreamLocationId: "",
  sourceKey: "",
  automotive: false,
  syncTime: "10:00",
};

function firstProblemPerField(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of issues) problems[issue.path.map(String).join(".")] ??= issue.message;
  return problems;
}

/** Create and edit share this form; it checks with the server's own schema before sending. */
export function LocationForm({ location, timeZones, countries }: LocationFormProps) {
  const router = useRouter();
  const saveLocation = useApiMutation<{ location: LocationView }>([queryKeys.locations]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const initial = location?.values ?? emptyValues;
  // The token was issued for one upstream location in one environment (the server refuses the change too).
  const boundToToken = location?.connected ?? false;

  function valuesOf(form: HTMLFormElement): LocationFormValues {
    const data = new FormData(form);
    const text = (field: Field) => String(data.get(field) ?? "");
    return {
      name: text("name"),
      timeZone: text("timeZone"),
      country: text("country"),
      environment: (boundToToken ? initial.environment : text("environment")) as LocationFormValues["environment"],
      upstreamLocationId: boundToToken ? initial.upstreamLocationId : text("upstreamLocationId"),
      sourceKey: text("sourceKey"),
      automotive: data.get("automotive") === "on",
      syncTime: text("syncTime"),
    };
  }

  function showProblems(form: HTMLFormElement, problems: Record<string, string>) {
    setFieldErrors(problems);
    const firstInvalid = fieldOrder.find((field) => problems[field]);
    const element = firstInvalid ? form.elements.namedItem(firstInvalid) : null;
    if (element instanceof HTMLElement) element.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = valuesOf(form);
    const parsed = LocationInput.safeParse(values);
    if (!parsed.success) {
      setError("Some fields need attention.");
      showProblems(form, firstProblemPerField(parsed.error.issues));
      return;
    }
    setPending(true);
    const result = await saveLocation.mutateAsync(
      location
        ? { method: "PATCH", url: `/api/locations/${location.id}`, body: parsed.data }
        : { method: "POST", url: "/api/locations", body: parsed.data },
    );
    setPending(false);
    if (!result.ok) {
      setError(result.detail);
      showProblems(form, result.fieldErrors);
      return;
    }
    setError(null);
    setFieldErrors({});
    router.push(`/locations/${result.data.location.id}`);
  }

  const describedBy = (field: Field, help?: boolean) =>
    [help ? `location-${field}-help` : null, fieldErrors[field] ? `location-${field}-error` : null].filter(Boolean).join(" ") || undefined;
  const fieldProps = (field: Field, help?: boolean) => ({
    id: `location-${field}`,
    name: field,
    "aria-invalid": Boolean(fieldErrors[field]),
    "aria-describedby": describedBy(field, help),
  });

  return (
    <Card>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          {error ? <Alert tone="error">{error}</Alert> : null}
          {boundToToken ? (
            <Alert tone="info">
              This location is connected: its environment and upstream location ID cannot change until it is disconnected, because its token belongs
              to the upstream location it was connected to.
            </Alert>
          ) : null}
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField field="name" label="Name" error={fieldErrors.name}>
              <Input {...fieldProps("name")} defaultValue={initial.name} autoComplete="off" />
            </FormField>
            <FormField field="timeZone" label="Time zone" error={fieldErrors.timeZone} help="The business's IANA time zone, e.g. Europe/Berlin.">
              <Input
                {...fieldProps("timeZone", true)}
                defaultValue={initial.timeZone}
                list="location-time-zones"
                autoComplete="off"
                placeholder="Europe/Berlin"
              />
              <datalist id="location-time-zones">
                {timeZones.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </FormField>
            <FormField field="country" label="Country" error={fieldErrors.country} help="The default region of customers' phone numbers.">
              <Select {...fieldProps("country", true)} defaultValue={initial.country}>
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name} ({country.code})
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField field="environment" label="Environment" error={fieldErrors.environment}>
              <Select {...fieldProps("environment")} defaultValue={initial.environment} disabled={boundToToken}>
                {environmentNames.map((name) => (
                  <option key={name} value={name}>
                    {environmentLabels[name]}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField
              field="upstreamLocationId"
              label="Upstream location ID"
              error={fieldErrors.upstreamLocationId}
              help="The location's ID in the Marketing Automation Service."
            >
              <Input
                {...fieldProps("upstreamLocationId", true)}
                defaultValue={initial.upstreamLocationId}
                disabled={boundToToken}
                autoComplete="off"
              />
            </FormField>
            <FormField
              field="sourceKey"
              label="Source key"
              error={fieldErrors.sourceKey}
              help="Which location of the management system this one reads."
            >
              <Input {...fieldProps("sourceKey", true)} defaultValue={initial.sourceKey} autoComplete="off" />
            </FormField>
            <FormField
              field="syncTime"
              label="Daily sync time"
              error={fieldErrors.syncTime}
              help={`Between ${SYNC_WINDOW.start} and 18:59, local time. The upstream recommends syncing between 9am and 7pm in the business's time zone; text messages are not delivered after 9pm or before 9am, so campaigns triggered by a sync land in business hours.`}
            >
              <Input
                {...fieldProps("syncTime", true)}
                type="time"
                min={SYNC_WINDOW.start}
                max="18:59"
                step={60}
                defaultValue={initial.syncTime}
                className="w-40"
              />
            </FormField>
            <div className="flex flex-col gap-1.5 sm:self-center">
              <div className="flex items-center gap-2">
                <input
                  {...fieldProps("automotive", true)}
                  type="checkbox"
                  defaultChecked={initial.automotive}
                  className="size-4 rounded border-slate-300 focus-visible:ring-2 focus-visible:ring-blue-600"
                />
                <Label htmlFor="location-automotive">Automotive business</Label>
              </div>
              <p id="location-automotive-help" className="text-xs text-slate-600">
                Enables the vehicles step.
              </p>
              <FieldError id="location-automotive-error" message={fieldErrors.automotive} />
            </div>
          </div>
          <div className="flex gap-3">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : location ? "Save changes" : "Create location"}
            </Button>
            <Button variant="secondary" onClick={() => router.back()} disabled={pending}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function FormField({ field, label, error, help, children }: { field: Field; label: string; error?: string; help?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`location-${field}`}>{label}</Label>
      {children}
      {help ? (
        <p id={`location-${field}-help`} className="text-xs text-slate-600">
          {help}
        </p>
      ) : null}
      <FieldError id={`location-${field}-error`} message={error} />
    </div>
  );
}
