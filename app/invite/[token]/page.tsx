import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInviteForm } from "@/components/users/accept-invite-form";
import { getDatabase } from "@/db/client";
import { findUsableInvite } from "@/lib/users/accept-invite";
import { InviteToken } from "@/lib/users/user-inputs";

export const metadata: Metadata = { title: "Set your password" };

// Public on purpose: the one-time link is the credential.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const parsed = InviteToken.safeParse(await params);
  const invite = parsed.success ? await findUsableInvite({ db: getDatabase() }, { token: parsed.data.token }) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        {invite?.hasPassword ? (
          <>
            <h1 className="mb-1 text-2xl font-semibold tracking-tight">You have an account already</h1>
            <p className="text-sm text-slate-600">
              <strong>{invite.email}</strong> has a password already, which an invite link cannot change.{" "}
              <Link className="text-blue-700 underline" href="/sign-in">
                Sign in
              </Link>{" "}
              with it.
            </p>
          </>
        ) : invite && parsed.success ? (
          <>
            <h1 className="mb-1 text-2xl font-semibold tracking-tight">Welcome to Location Sync</h1>
            <p className="mb-6 text-sm text-slate-600">
              Choose a password for <strong>{invite.email}</strong>. This link works once.
            </p>
            <AcceptInviteForm token={parsed.data.token} email={invite.email} />
          </>
        ) : (
          <>
            <h1 className="mb-1 text-2xl font-semibold tracking-tight">This link cannot be used</h1>
            <p className="text-sm text-slate-600">
              It was used already, replaced by a newer one, or it expired. Ask the person who invited you for a new link.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
