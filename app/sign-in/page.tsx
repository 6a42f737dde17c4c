import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SingleSignOnButton } from "@/components/auth/single-sign-on-button";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { getCurrentUser } from "@/lib/auth/current-user";
import { getConfig } from "@/lib/config/config";
import { OIDC_PROVIDER_ID, oidcProviderOf, oidcRefusalCodes } from "@/lib/auth/oidc-provider";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";

/** Why a single sign-on was refused (lib/auth/auth-options' signIn callback redirects here with the code). */
const singleSignOnRefusals: Record<string, string> = {
  [oidcRefusalCodes.awaiting_role]: "Your account was created. An administrator assigns your role; sign in again once they have.",
  [oidcRefusalCodes.deactivated]: "Your account is deactivated. Ask your administrator.",
  [oidcRefusalCodes.unverified_email]: "Your company account's email is not verified, or another sign-on account holds it. Ask your administrator.",
  OAuthCallback: "Single sign-on did not complete. Try again.",
};

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl, getConfig().NEXTAUTH_URL);
  if (await getCurrentUser()) redirect(callbackPath);
  const singleSignOn = oidcProviderOf(getConfig()) !== null;
  const refusal = typeof params.error === "string" ? singleSignOnRefusals[params.error] : undefined;
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
            {refusal ? (
              <Alert tone="error" className="mb-4">
                {refusal}
              </Alert>
            ) : null}
            <SignInForm callbackPath={callbackPath} />
            {singleSignOn ? (
              <div className="mt-4 border-t border-slate-200 pt-4">
                <SingleSignOnButton providerId={OIDC_PROVIDER_ID} callbackPath={callbackPath} />
              </div>
            ) : null}
          </CardContent>
        </Card>
        <p className="mt-6 text-center text-xs text-slate-500">No account yet? Ask your administrator for an invitation.</p>
      </div>
    </main>
  );
}
