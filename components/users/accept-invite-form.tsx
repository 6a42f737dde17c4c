"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { NewPasswordFields } from "./new-password-fields";

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
      <NewPasswordFields fieldErrors={fieldErrors} />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set password and sign in"}
      </Button>
    </form>
  );
}
