"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { roleLabels, ALL_ROLES } from "@/lib/auth/roles";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import type { CreatedUser } from "@/lib/users/create-user";
import { InviteLinkNotice } from "./invite-link-notice";

export function CreateUserForm() {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [invite, setInvite] = useState<{ email: string; path: string; expiresAt: string } | null>(null);
  const createUser = useApiMutation<{ user: CreatedUser & { invite: { path: string; expiresAt: string } } }>();
  const pending = createUser.isPending;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const result = await createUser.mutateAsync({
      method: "POST",
      url: "/api/users",
      body: { email: form.get("email"), name: form.get("name"), role: form.get("role") },
    });
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    setError(null);
    setFieldErrors({});
    setInvite({ email: result.data.user.email, ...result.data.user.invite });
    formElement.reset();
    router.refresh();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a user</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {invite ? <InviteLinkNotice {...invite} /> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-end">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="new-user-email">Email</Label>
            <Input
              id="new-user-email"
              name="email"
              type="email"
              required
              aria-invalid={Boolean(fieldErrors.email)}
              aria-describedby="new-user-email-error"
            />
            <FieldError id="new-user-email-error" message={fieldErrors.email} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="new-user-name">Name</Label>
            <Input id="new-user-name" name="name" aria-invalid={Boolean(fieldErrors.name)} aria-describedby="new-user-name-error" />
            <FieldError id="new-user-name-error" message={fieldErrors.name} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="new-user-role">Role</Label>
            <Select id="new-user-role" name="role" defaultValue="support">
              {ALL_ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create and get link"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
