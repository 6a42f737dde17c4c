"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { InviteLinkNotice } from "@/components/users/invite-link-notice";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import type { OwnerInvitation } from "@/lib/locations/invite-location-owner";

type Shown = { kind: "invite"; email: string; path: string; expiresAt: string } | { kind: "member_added"; email: string };

export function OwnerInviteForm({ locationId }: { locationId: string }) {
  const router = useRouter();
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const inviteOwner = useApiMutation<{ invitation: OwnerInvitation }>();
  const pending = inviteOwner.isPending;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const result = await inviteOwner.mutateAsync({
      method: "POST",
      url: `/api/locations/${locationId}/owner-invitations`,
      body: { email: form.get("email"), name: form.get("name") },
    });
    if (!result.ok) {
      setError(result.detail);
      setFieldErrors(result.fieldErrors);
      return;
    }
    const invitation = result.data.invitation;
    setError(null);
    setFieldErrors({});
    setShown(invitation.kind === "invite" ? { ...invitation, expiresAt: String(invitation.expiresAt) } : invitation);
    formElement.reset();
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-3">
      {shown?.kind === "invite" ? <InviteLinkNotice email={shown.email} path={shown.path} expiresAt={shown.expiresAt} /> : null}
      {shown?.kind === "member_added" ? (
        <Alert tone="success">{shown.email} already has a dashboard account and now sees this location.</Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form onSubmit={onSubmit} noValidate aria-label="Invite the owner" className="grid gap-3 sm:grid-cols-[2fr_2fr_auto] sm:items-end">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="owner-email">Owner&apos;s email</Label>
          <Input id="owner-email" name="email" type="email" required aria-invalid={Boolean(fieldErrors.email)} aria-describedby="owner-email-error" />
          <FieldError id="owner-email-error" message={fieldErrors.email} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="owner-name">Name</Label>
          <Input id="owner-name" name="name" aria-invalid={Boolean(fieldErrors.name)} aria-describedby="owner-name-error" />
          <FieldError id="owner-name-error" message={fieldErrors.name} />
        </div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Inviting…" : "Invite owner"}
        </Button>
      </form>
    </div>
  );
}
