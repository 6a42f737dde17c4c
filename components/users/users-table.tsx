"use client";

import { Time } from "@/components/time/time";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ALL_ROLES, roleLabels, type Role } from "@/lib/auth/roles";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { InviteLinkNotice } from "./invite-link-notice";

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  rolePending: boolean;
  hasPassword: boolean;
  singleSignOn: boolean;
  pendingInviteExpiresAt: string | null;
  lastSignInAt: string | null;
}

export function UsersTable({ users, currentUserId }: { users: UserRow[]; currentUserId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [invite, setInvite] = useState<{ email: string; path: string; expiresAt: string; kind?: "Password reset link" } | null>(null);
  const updateUser = useApiMutation();
  const reinviteUser = useApiMutation<{ invite: { path: string; expiresAt: string } }>();
  const sendReset = useApiMutation<{ reset: { path: string; expiresAt: string } }>();

  async function resetLink(user: UserRow) {
    const result = await sendReset.mutateAsync({ method: "POST", url: `/api/users/${user.id}/password-reset` });
    if (!result.ok) return setError(result.detail);
    setError(null);
    setInvite({ email: user.email, ...result.data.reset, kind: "Password reset link" });
  }

  // A role chosen in a row's select waits here until the admin confirms it.
  const [roleChange, setRoleChange] = useState<{ user: UserRow; role: Role } | null>(null);

  async function update(user: UserRow, change: { role?: Role; active?: boolean }, done: string) {
    const result = await updateUser.mutateAsync({ method: "PATCH", url: `/api/users/${user.id}`, body: change });
    setError(result.ok ? null : result.detail);
    if (result.ok) toast.success(done);
    else toast.error(result.detail);
    router.refresh();
  }

  async function reinvite(user: UserRow) {
    const result = await reinviteUser.mutateAsync({ method: "POST", url: `/api/users/${user.id}/invite` });
    if (!result.ok) return setError(result.detail);
    setError(null);
    setInvite({ email: user.email, ...result.data.invite });
    router.refresh();
  }

  return (
    <Card>
      <CardContent className="flex flex-col gap-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {invite ? <InviteLinkNotice {...invite} /> : null}
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>User</TableHead>
              <TableHead>Role</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Last sign-in</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id} data-testid={`user-row-${user.email}`}>
                <TableCell>
                  <div className="font-medium">{user.email}</div>
                  {user.name ? <div className="text-slate-600">{user.name}</div> : null}
                </TableCell>
                <TableCell>
                  <Select
                    aria-label={`Role of ${user.email}`}
                    value={user.rolePending ? "" : user.role}
                    disabled={user.id === currentUserId}
                    onChange={(event) => setRoleChange({ user, role: event.target.value as Role })}
                    className="w-44"
                  >
                    {user.rolePending ? (
                      <option value="" disabled>
                        Choose a role…
                      </option>
                    ) : null}
                    {ALL_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {roleLabels[role]}
                      </option>
                    ))}
                  </Select>
                </TableCell>
                <TableCell>
                  {user.rolePending ? (
                    <Badge tone="warning">Awaiting a role</Badge>
                  ) : !user.active ? (
                    <Badge tone="danger">Deactivated</Badge>
                  ) : user.singleSignOn ? (
                    <Badge tone="success">Single sign-on</Badge>
                  ) : user.hasPassword ? (
                    <Badge tone="success">Active</Badge>
                  ) : (
                    <Badge tone="warning">{user.pendingInviteExpiresAt ? "Invited" : "Invite expired"}</Badge>
                  )}
                </TableCell>
                <TableCell>{user.lastSignInAt ? <Time value={user.lastSignInAt} timeZone="UTC" /> : "Never"}</TableCell>
                <TableCell className="flex flex-wrap justify-end gap-2">
                  {user.active && !user.hasPassword && !user.singleSignOn ? (
                    <Button size="sm" variant="secondary" onClick={() => reinvite(user)}>
                      New invite link
                    </Button>
                  ) : null}
                  {user.active && user.hasPassword && !user.singleSignOn && user.id !== currentUserId ? (
                    <Button size="sm" variant="secondary" onClick={() => resetLink(user)} aria-label={`Send password reset to ${user.email}`}>
                      Send password reset
                    </Button>
                  ) : null}
                  {user.id === currentUserId || user.rolePending ? null : user.active ? (
                    <ConfirmDialog
                      trigger="Deactivate"
                      triggerVariant="destructive"
                      triggerLabel={`Deactivate ${user.email}`}
                      title={`Deactivate ${user.email}?`}
                      confirmLabel="Deactivate"
                      onConfirm={() => update(user, { active: false }, `${user.email} was deactivated.`)}
                    >
                      They are signed out at once and can no longer sign in. You can reactivate them later.
                    </ConfirmDialog>
                  ) : (
                    <Button size="sm" variant="secondary" onClick={() => update(user, { active: true }, `${user.email} was reactivated.`)}>
                      Reactivate
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <ConfirmDialog
          open={roleChange !== null}
          onOpenChange={(open) => (open ? null : setRoleChange(null))}
          title={roleChange ? `Change the role of ${roleChange.user.email} to ${roleLabels[roleChange.role]}?` : ""}
          confirmLabel="Change role"
          variant="default"
          onConfirm={() => {
            if (!roleChange) return;
            const { user, role } = roleChange;
            void update(user, { role }, `The role of ${user.email} is now ${roleLabels[role]}.`);
          }}
        >
          {roleChange?.user.rolePending
            ? `${roleChange.user.email} signed in through single sign-on and has no access yet: as ${roleLabels[roleChange.role]} they get it at their next sign-in.`
            : roleChange
              ? `Their role changes from ${roleLabels[roleChange.user.role]} to ${roleLabels[roleChange.role]}: what they may see and do changes at their next request.`
              : null}
        </ConfirmDialog>
      </CardContent>
    </Card>
  );
}
