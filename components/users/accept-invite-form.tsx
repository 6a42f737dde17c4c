"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useApiMutation } from "@/components/queries/use-api-mutation";

export function AcceptInviteForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const acceptInvite = useApiMutation<{ locationId: string | null; passwordSet: boolean }>();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    setPending(true);
    const result = await acceptInvite.mutateAsync({
      method: "POST",
      url: `/api/invites/${token}`,
      body: { password, passwordConfirmation: String(form.get("passwordConfirmation") ?? "") },
    });
    if (!result.ok) {
      setPending(false);
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    // An owner invited for a location goes straight on to connect it.
    const next = result.data.locationId ? `/locations/${result.data.locationId}/connect` : "/locations";
    if (!result.data.passwordSet) {
      // The account had a password already, which a link never changes: sign in with it.
      router.replace(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
      return;
    }
    await signIn("credentials", { email, password, redirect: false });
    router.replace(next);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="password">New password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby="password-hint password-error"
        />
        <p id="password-hint" className="text-xs text-slate-600">
          At least 12 characters.
        </p>
        <FieldError id="password-error" message={fieldErrors.password} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="passwordConfirmation">Repeat the password</Label>
        <Input
          id="passwordConfirmation"
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(fieldErrors.passwordConfirmation)}
          aria-describedby="passwordConfirmation-error"
        />
        <FieldError id="passwordConfirmation-error" message={fieldErrors.passwordConfirmation} />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set password and sign in"}
      </Button>
    </form>
  );
}
