import type { Metadata } from "next";
import { UsersIcon } from "lucide-react";
import { PageHeader } from "@/components/layout/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { CreateUserForm } from "@/components/users/create-user-form";
import { UsersTable } from "@/components/users/users-table";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { listUsers } from "@/lib/users/list-users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const currentUser = await requirePageUser({ action: "users.manage" });
  const users = await listUsers({ db: getDatabase(), actor: currentUser });
  return (
    <>
      <PageHeader
        title="Users"
        description="People who can sign in to the dashboard. New users get a one-time invite link to set their own password."
      />
      <div className="flex flex-col gap-6">
        <CreateUserForm />
        <UsersTable
          currentUserId={currentUser.id}
          users={users.map((user) => ({
            ...user,
            pendingInviteExpiresAt: user.pendingInviteExpiresAt?.toISOString() ?? null,
            lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
            createdAt: user.createdAt.toISOString(),
          }))}
        />
        {users.every((user) => user.id === currentUser.id) ? (
          <Card>
            <EmptyState
              icon={UsersIcon}
              message="You are the only user so far: invite a colleague or a location's owner with the form above, and they get a one-time link to set their password."
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}
