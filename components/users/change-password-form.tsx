"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { NewPasswordFields } from "./new-password-fields";

/** Every session of the account ends with the change (this one too): the form signs this browser in again at once. */
export function ChangePasswordForm() {
  const router = useRouter();
  const change = useApiMutation<{ email: string }>();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const password = String(form.get("password") ?? "");
    const result = await change.mutateAsync({
      method: "POST",
      url: "/api/account/password",
      body: {
        currentPassword: String(form.get("currentPassword") ?? ""),
        password,
        passwordConfirmation: String(form.get("passwordConfirmation") ?? ""),
      },
    });
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    setError(null);
    setFieldErrors({});
    formElement.reset();
    await signIn("credentials", { email: result.data.email, password, redirect: false });
    toast.success("Password changed. Your other sessions were signed out.");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change your password" className="flex max-w-sm flex-col gap-4">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="currentPassword">Current password</Label>
        <Input
          id="currentPassword"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(fieldErrors.currentPassword)}
          aria-describedby="currentPassword-error"
        />
        <FieldError id="currentPassword-error" message={fieldErrors.currentPassword} />
      </div>
      <NewPasswordFields fieldErrors={fieldErrors} />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Saving…" : "Change password"}
      </Button>
    </form>
  );
}
