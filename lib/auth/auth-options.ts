import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDatabase } from "@/db/client";
import { clientAddressFromHeaders } from "@/lib/http/client-address";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import { escapeUnsafeCharacters } from "@/lib/validation/safe-text";
import { SignInInput } from "./sign-in-inputs";
import { signInWithPassword } from "./sign-in-with-password";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 15 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { type: "email" }, password: { type: "password" } },
      async authorize(credentials, request) {
        const input = SignInInput.safeParse(credentials ?? {});
        if (!input.success) return null;
        const result = await signInWithPassword(getDatabase(), {
          email: input.data.email,
          password: input.data.password,
          clientAddress: clientAddressFromHeaders(request.headers ?? {}),
        }).catch(answerGenerically);
        if (!result.ok) {
          // next-auth hands this message to the sign-in form as the error code.
          if (result.reason === "throttled") throw new Error("Throttled");
          return null;
        }
        return { id: result.user.id, email: result.user.email, name: result.user.name, sessionEpoch: result.user.sessionEpoch };
      },
    }),
  ],
  // next-auth's own logger prints an error's message (a failed query's SQL and parameters) and metadata.
  logger: {
    error: (code, metadata) => console.error(`[next-auth][error][${escapeUnsafeCharacters(code).slice(0, 80)}] ${describeErrorForLog(metadata instanceof Error ? metadata : metadata?.error)}`),
    warn: (code) => console.warn(`[next-auth][warn][${escapeUnsafeCharacters(code).slice(0, 80)}]`),
    debug: () => {},
  },
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sessionEpoch = (user as { sessionEpoch?: number }).sessionEpoch ?? 0;
      }
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
};

/** next-auth sends the message of an error thrown in authorize() to the browser: it must say nothing about the failure. */
function answerGenerically(error: unknown): never {
  console.error(`[auth] sign-in failed unexpectedly: ${describeErrorForLog(error)}`);
  throw new Error("Unavailable");
}
