import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getConfig } from "@/lib/config/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl, getConfig().NEXTAUTH_URL);
  if (await getCurrentUser()) redirect(callbackPath);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <h1 className="mb-1 text-2xl font-semibold tracking-tight">Sign in to Location Sync</h1>
        <p className="mb-6 text-sm text-slate-600">Use the email and password of your dashboard account.</p>
        <SignInForm callbackPath={callbackPath} />
      </div>
    </main>
  );
}
