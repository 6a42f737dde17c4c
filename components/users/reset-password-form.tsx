"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { NewPasswordFields } from "./new-password-fields";

export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const reset = useApiMutation<{ email: string }>();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const result = await reset.mutateAsync({
      method: "POST",
      url: `/api/password-resets/${token}`,
      body: { password, passwordConfirmation: String(form.get("passwordConfirmation") ?? "") },
    });
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    await signIn("credentials", { email, password, redirect: false });
    router.replace("/locations");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <NewPasswordFields fieldErrors={fieldErrors} />
      <Button type="submit" disabled={reset.isPending}>
        {reset.isPending ? "Saving…" : "Set password and sign in"}
      </Button>
    </form>
  );
}
