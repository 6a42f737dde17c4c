"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";
import { ConnectLocationInput } from "@/lib/locations/location-inputs";

/** The upstream credentials are read from the form on submit and cleared after: they never sit in React state. */
export function ConnectForm({ locationId, reconnect }: { locationId: string; reconnect: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const connect = useApiMutation([queryKeys.location(locationId)]);
  const pending = connect.isPending;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const parsed = ConnectLocationInput.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) {
      setError(null);
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    const result = await connect.mutateAsync({ method: "POST", url: `/api/locations/${locationId}/connection`, body: parsed.data });
    (formElement.elements.namedItem("password") as HTMLInputElement).value = "";
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    router.replace(`/locations/${locationId}`);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate autoComplete="off" aria-label="Connect the location" className="flex max-w-md flex-col gap-4">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="upstream-email">Marketing Automation Service email</Label>
        <Input
          id="upstream-email"
          name="email"
          type="email"
          autoComplete="off"
          aria-invalid={Boolean(fieldErrors.email)}
          aria-describedby="upstream-email-error"
        />
        <FieldError id="upstream-email-error" message={fieldErrors.email} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="upstream-password">Marketing Automation Service password</Label>
        <Input
          id="upstream-password"
          name="password"
          type="password"
          autoComplete="off"
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby="upstream-password-error"
        />
        <FieldError id="upstream-password-error" message={fieldErrors.password} />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Connecting…" : reconnect ? "Reconnect" : "Connect"}
      </Button>
    </form>
  );
}
