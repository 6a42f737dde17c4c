import { eq } from "drizzle-orm";
import { createRequire } from "node:module";
import path from "node:path";
import type { AuthOptions } from "next-auth";
import { decode } from "next-auth/jwt";
import { afterAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { setEnvironment } from "@/lib/config/config";
import { updateUser } from "@/lib/users/update-user";
import { startTestOidcProvider } from "./testing/test-oidc-provider";

// The whole code flow through next-auth's own handler: our options, a real (local) provider, the real database.
const { db } = await useTestDatabase();
const provider = await startTestOidcProvider({ clientId: "location-sync", clientSecret: "client-secret" });
afterAll(() => provider.close());
const origin = "http://localhost:3000";
const secret = "a test secret long enough for next-auth";
setEnvironment({
  NEXTAUTH_URL: origin,
  NEXTAUTH_SECRET: secret,
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: "location-sync",
  OIDC_CLIENT_SECRET: "client-secret",
  OIDC_ROLE_CLAIM: "groups",
  OIDC_ROLE_MAP: "sync-support=support",
});
const { authOptions } = await import("./auth-options");

// The handler behind next-auth's route (app/api/auth/[...nextauth]); its package does not export it, so it is loaded by path.
const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Request; options: AuthOptions }) => Promise<{
    body?: unknown;
    redirect?: string;
    cookies?: { name: string; value: string }[];
  }>;
};

/** A browser's cookie jar, enough for next-auth's cookies. */
class Jar {
  readonly values = new Map<string, string>();
  take(cookies: { name: string; value: string }[] = []) {
    for (const cookie of cookies) this.values.set(cookie.name, cookie.value);
  }
  get header() {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function call(jar: Jar, path: string, init: { method?: string; form?: Record<string, string> } = {}) {
  const response = await AuthHandler({
    req: new Request(`${origin}/api/auth/${path}`, {
      method: init.method ?? "GET",
      headers: { cookie: jar.header, ...(init.form ? { "content-type": "application/json" } : {}) },
      body: init.form ? JSON.stringify(init.form) : undefined,
    }),
    options: authOptions,
  });
  jar.take(response.cookies);
  return response;
}

/** Sign-in button → provider → callback, as a browser follows the redirects. Returns where it ends and the session. */
async function signInThroughProvider(claims: Record<string, unknown>) {
  provider.signInNextAs(claims);
  const jar = new Jar();
  const { body } = await call(jar, "csrf");
  const started = await call(jar, "signin/oidc", {
    method: "POST",
    form: { csrfToken: (body as { csrfToken: string }).csrfToken, callbackUrl: `${origin}/locations` },
  });
  expect(started.redirect).toMatch(new RegExp(`^${provider.issuer}/authorize\\?`));
  const authorized = await fetch(started.redirect!, { redirect: "manual" });
  const back = new URL(authorized.headers.get("location")!);
  const finished = await call(jar, `callback/oidc${back.search}`);
  const sessionCookie = jar.values.get("next-auth.session-token");
  const session = sessionCookie ? await decode({ token: sessionCookie, secret }) : null;
  return { redirect: finished.redirect, session };
}

describe("single sign-on through a local OpenID Connect provider", () => {
  it("a claim that maps to a role signs a new account in: the session is our account's", async () => {
    const result = await signInThroughProvider({
      sub: "idp-1",
      email: "sam@example.test",
      email_verified: true,
      name: "Sam",
      groups: ["sync-support"],
    });
    expect(result.redirect).toBe(`${origin}/locations`);
    const [account] = await db.select().from(users).where(eq(users.oidcSubject, "idp-1"));
    expect(account).toMatchObject({ email: "sam@example.test", role: "support", active: true });
    expect(result.session).toMatchObject({ sub: account!.id, sessionEpoch: 0 });
  });

  it("without a mapped claim the account waits for an admin: no session until a role is assigned", async () => {
    const claims = { sub: "idp-2", email: "new@example.test", email_verified: true, groups: ["elsewhere"] };
    const refused = await signInThroughProvider(claims);
    expect(refused.redirect).toBe("/sign-in?error=AwaitingRole");
    expect(refused.session).toBeNull();

    const [account] = await db.select().from(users).where(eq(users.oidcSubject, "idp-2"));
    await updateUser({ db, actor: { system: true, id: null, email: "admin@example.test" } }, { userId: account!.id, role: "engineer" });
    const admitted = await signInThroughProvider(claims);
    expect(admitted.session).toMatchObject({ sub: account!.id });
  });
});
