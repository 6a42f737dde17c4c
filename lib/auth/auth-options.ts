import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDatabase } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import { clientAddressFromHeaders } from "@/lib/http/client-address";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import { publicOriginIsHttps } from "@/lib/runtime/security-headers";
import { escapeUnsafeCharacters } from "@/lib/validation/safe-text";
import { OIDC_PROVIDER_ID, oidcProviderOf, oidcRefusalCodes, type OidcProfile } from "./oidc-provider";
import { roleFromClaims } from "./oidc-role";
import { isSessionRevoked, revokeSession } from "./revoked-sessions";
import { safeCallbackPath } from "./safe-callback-path";
import { SignInInput } from "./sign-in-inputs";
import { signInWithOidc } from "./sign-in-with-oidc";
import { signInWithPassword } from "./sign-in-with-password";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

const oidcProvider = oidcProviderOf(getConfig());

export const authOptions: NextAuthOptions = {
  secret: getConfig().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 15 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  // Secure, __Secure-/__Host- prefixed cookies when browsers reach us over https (the request policy adds Secure per request too).
  useSecureCookies: publicOriginIsHttps(),
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(credentials, request) {
        const input = SignInInput.safeParse(credentials ?? {});
        if (!input.success) return null;
        const result = await signInWithPassword(
          { db: getDatabase() },
          {
            email: input.data.email,
            password: input.data.password,
            clientAddress: clientAddressFromHeaders(request.headers ?? {}),
          },
        ).catch(answerGenerically);
        if (!result.ok) {
          // next-auth hands this message to the sign-in form as the error code.
          if (result.reason === "throttled") throw new Error("Throttled");
          return null;
        }
        return { id: result.user.id, email: result.user.email, name: result.user.name, sessionEpoch: result.user.sessionEpoch };
      },
    }),
    ...(oidcProvider ? [oidcProvider] : []),
  ],
  // next-auth's own logger prints an error's message (a failed query's SQL and parameters) and metadata.
  logger: {
    error: (code, metadata) =>
      console.error(
        `[next-auth][error][${escapeUnsafeCharacters(code).slice(0, 80)}] ${describeErrorForLog(metadata instanceof Error ? metadata : metadata?.error)}`,
      ),
    warn: (code) => console.warn(`[next-auth][warn][${escapeUnsafeCharacters(code).slice(0, 80)}]`),
    debug: () => {},
  },
  callbacks: {
    /**
     * A single sign-on becomes one of our accounts (lib/auth/sign-in-with-oidc): next-auth hands this `user` on to
     * the jwt callback below, so it carries our account's id and session epoch from here.
     */
    async signIn({ user, account, profile }) {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      const claims = (profile ?? {}) as OidcProfile;
      if (!claims.sub || !claims.email) return `/sign-in?error=${oidcRefusalCodes.unverified_email}`;
      const result = await signInWithOidc(
        { db: getDatabase() },
        {
          subject: claims.sub,
          email: claims.email,
          emailVerified: claims.email_verified === true,
          name: claims.name ?? "",
          role: roleFromClaims(claims, getConfig()),
          clientAddress: null,
        },
      ).catch(answerGenerically);
      if (!result.ok) return `/sign-in?error=${oidcRefusalCodes[result.reason]}`;
      Object.assign(user, result.user);
      return true;
    },
    // Every redirect next-auth makes (after sign-in or sign-out) stays on this site.
    redirect({ url, baseUrl }) {
      return new URL(safeCallbackPath(url, baseUrl), baseUrl).toString();
    },
    /**
     * Runs for every session look-up, including the refresh that re-issues the token with a later expiry: a revoked
     * session is refused here, so no copy of its token works or is renewed. (next-auth replaces the `jti` claim on
     * each re-issue, so the session carries its own stable id.)
     */
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sessionEpoch = (user as { sessionEpoch?: number }).sessionEpoch ?? 0;
        token.sessionId = randomUUID();
        return token;
      }
      // A token from before session ids existed cannot be revoked: it is refused too (one more sign-in).
      if (!token.sessionId || (await isSessionRevoked(getDatabase(), token.sessionId))) return {};
      return token;
    },
    session({ session, token }) {
      // Role and status are read from the database on every request (lib/auth/guard), not trusted from the token.
      session.user = { email: token.email ?? null, name: token.name ?? null };
      session.userId = token.sub;
      session.sessionEpoch = token.sessionEpoch ?? 0;
      return session;
    },
  },
  events: {
    async signOut({ token }) {
      if (!token?.sessionId) return;
      await revokeSession(
        getDatabase(),
        { sessionId: token.sessionId, userId: token.sub ?? null, email: token.email ?? null },
        SESSION_MAX_AGE_SECONDS,
      );
    },
  },
};

/** next-auth sends the message of an error thrown in authorize() to the browser: it must say nothing about the failure. */
function answerGenerically(error: unknown): never {
  console.error(`[auth] sign-in failed unexpectedly: ${describeErrorForLog(error)}`);
  throw new Error("Unavailable");
}
