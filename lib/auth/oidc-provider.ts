import type { OAuthConfig } from "next-auth/providers/oauth";
import type { Config } from "@/lib/config/config";

export const OIDC_PROVIDER_ID = "oidc";

export interface OidcProfile extends Record<string, unknown> {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** next-auth's OpenID Connect provider for the company's identity provider, when OIDC_ISSUER and the client are set. */
export function oidcProviderOf(config: Pick<Config, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET">): OAuthConfig<OidcProfile> | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
  const issuer = config.OIDC_ISSUER.replace(/\/+$/, "");
  return {
    id: OIDC_PROVIDER_ID,
    name: "single sign-on",
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (profile) => ({ id: profile.sub, email: profile.email ?? null, name: profile.name ?? null }),
  };
}

/** The sign-in page's words for a refused single sign-on (next-auth sends the code as ?error=). */
export const oidcRefusalCodes = { awaiting_role: "AwaitingRole", deactivated: "AccountDeactivated", unverified_email: "EmailNotLinkable" } as const;
