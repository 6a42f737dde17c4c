import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/users/reset-password-form";
import { getDatabase } from "@/db/client";
import { findUsablePasswordReset } from "@/lib/users/password-reset";
import { InviteToken } from "@/lib/users/user-inputs";

export const metadata: Metadata = { title: "Reset your password" };

// Public on purpose: the one-time link is the credential.
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const parsed = InviteToken.safeParse(await params);
  const reset = parsed.success ? await findUsablePasswordReset({ db: getDatabase() }, { token: parsed.data.token }) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        {reset && parsed.success ? (
          <>
            <h1 className="mb-1 text-2xl font-semibold tracking-tight">Choose a new password</h1>
            <p className="mb-6 text-sm text-slate-600">
              For <strong>{reset.email}</strong>. This link works once; every session of the account is signed out.
            </p>
            <ResetPasswordForm token={parsed.data.token} email={reset.email} />
          </>
        ) : (
          <>
            <h1 className="mb-1 text-2xl font-semibold tracking-tight">This link cannot be used</h1>
            <p className="text-sm text-slate-600">
              It was used already, replaced by a newer one, or it expired. Ask your administrator for a new link.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
