import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
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
      </div>
    </>
  );
}
