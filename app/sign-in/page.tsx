import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Card, CardContent } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getConfig } from "@/lib/config/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl, getConfig().NEXTAUTH_URL);
  if (await getCurrentUser()) redirect(callbackPath);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex flex-col items-center text-center">
          {/* A plain img: the icon is a static file of public/, already the size it is shown at. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src="/favicon.svg" alt="Location Sync" width={56} height={56} className="mb-4 rounded-xl shadow-sm" />
          <h1 className="text-2xl font-semibold tracking-tight">Sign in to Location Sync</h1>
          <p className="mt-1 text-sm text-slate-600">Keeps your business locations in sync with the Marketing Automation Service.</p>
        </div>
        <Card>
          <CardContent className="py-5">
            <p className="mb-4 text-sm text-slate-600">Use the email and password of your dashboard account.</p>
            <SignInForm callbackPath={callbackPath} />
          </CardContent>
        </Card>
        <p className="mt-6 text-center text-xs text-slate-500">No account yet? Ask your administrator for an invitation.</p>
      </div>
    </main>
  );
}
