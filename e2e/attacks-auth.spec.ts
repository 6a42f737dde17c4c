import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { auditLog, rateLimitBuckets, sandboxRequestLog, userInvites, users } from "../db/schema";
import { signInLimits } from "../lib/auth/sign-in-with-password";
import { connectLimits } from "../lib/locations/connect-location";
import { sandboxDemo } from "../lib/sandbox/provision";
import { hashInviteToken } from "../lib/users/invite-links";
import { apiAs, createUserWithPassword } from "./support/api";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, signInThroughForm, test } from "./support/test";

// Attacks that once got through (issue 14), replayed against the running server with real parallel requests.
const database = connectToAppDatabase();
test.afterAll(() => database.close());

const tokenOf = (path: string) => String(path).split("/").at(-1)!;

/** A location of our own, on the sandbox-backed staging environment. */
async function createLocation(name: string): Promise<string> {
  const support = await apiAs("support");
  const created = await support.post("/api/locations", {
    data: {
      name,
      timeZone: "Europe/Berlin",
      country: "DE",
      environment: "staging",
      upstreamLocationId: `sbx-attack-${randomSuffix()}`,
      sourceKey: `attack-${randomSuffix()}`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const body = await created.json();
  await support.dispose();
  return (body as { location: { id: string } }).location.id;
}

/** One sign-in as the sign-in form posts it; answers next-auth's error code, or "signed-in". */
async function postSignIn(api: APIRequestContext, csrfToken: string, email: string, password: string): Promise<string> {
  const response = await api.post("/api/auth/callback/credentials", {
    form: { email, password, csrfToken, callbackUrl: `${baseUrl()}/locations`, json: "true" },
  });
  expect(response.status(), await response.text()).toBeLessThan(500);
  const { url } = (await response.json()) as { url: string };
  return new URL(url).searchParams.get("error") ?? "signed-in";
}

test("40 simultaneous sign-ins against one account: at most the limit are checked, and the right password does not get in once it is used", async () => {
  const password = "the right password, for once";
  const user = await createUserWithPassword({ email: `stormed-${randomSuffix()}@example.test`, role: "support", password });
  const anonymous = await apiAs(null);
  const { csrfToken } = (await (await anonymous.get("/api/auth/csrf")).json()) as { csrfToken: string };

  // 39 wrong guesses at once; the right password goes out as soon as one guess was throttled (the limit is used),
  // while the others are still in flight: it must be throttled too.
  let limitUsed!: () => void;
  const throttledSeen = new Promise<void>((resolve) => (limitUsed = resolve));
  const wrong = Array.from({ length: 39 }, (_, index) =>
    postSignIn(anonymous, csrfToken, user.email, `wrong guess ${index}`).then((outcome) => {
      if (outcome === "Throttled") limitUsed();
      return outcome;
    }),
  );
  const right = Promise.race([throttledSeen, Promise.allSettled(wrong)]).then(() => postSignIn(anonymous, csrfToken, user.email, password));
  const outcomes = await Promise.all([...wrong, right]);

  const count = (outcome: string) => outcomes.slice(0, 39).filter((value) => value === outcome).length;
  expect(count("CredentialsSignin")).toBeLessThanOrEqual(signInLimits.perAccount.limit);
  expect(count("Throttled")).toBeGreaterThanOrEqual(39 - signInLimits.perAccount.limit);
  expect(count("CredentialsSignin") + count("Throttled")).toBe(39);
  expect(outcomes[39]).toBe("Throttled");
  expect((await anonymous.get("/api/locations")).status()).toBe(401);

  const failures = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.action, "auth.sign_in_failed"), eq(auditLog.actorEmail, user.email)));
  expect(failures[0]!.n).toBeLessThanOrEqual(signInLimits.perAccount.limit);
  const [counter] = await database.db
    .select()
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.key, `sign-in:account:${user.email}`));
  expect(counter!.count).toBeLessThanOrEqual(signInLimits.perAccount.limit);
  await anonymous.dispose();
});

test("25 simultaneous connect attempts on one location: at most the limit reach the upstream, and the refused use up nothing", async () => {
  const attempts = 25;
  const locationId = await createLocation(`Stormed salon ${randomSuffix()}`);
  const [last] = await database.db.select({ id: sql<number>`coalesce(max(${sandboxRequestLog.id}), 0)::int` }).from(sandboxRequestLog);
  const support = await apiAs("support");
  const [owner] = sandboxDemo.owners;
  const wrongPassword = { email: owner.email, password: "not the owner's password" };
  const responses = await Promise.all(
    Array.from({ length: attempts }, () => support.post(`/api/locations/${locationId}/connection`, { data: wrongPassword })),
  );
  const statuses = responses.map((response) => response.status());
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - connectLimits.perLocation.limit);
  expect(statuses.filter((status) => status === 422)).toHaveLength(connectLimits.perLocation.limit);
  const reached = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sandboxRequestLog)
    .where(and(gt(sandboxRequestLog.id, last!.id), eq(sandboxRequestLog.endpoint, "access_tokens")));
  expect(reached[0]!.n).toBe(connectLimits.perLocation.limit);

  // More refused attempts than the address allows: they counted nothing, so this address may still try elsewhere.
  expect(attempts).toBeGreaterThan(connectLimits.perAddress.limit);
  const elsewhere = await createLocation(`Other salon ${randomSuffix()}`);
  expect((await support.post(`/api/locations/${elsewhere}/connection`, { data: wrongPassword })).status()).toBe(422);
  await support.dispose();
});

/** Every request the page makes to another origin is refused and recorded: a redirect off-site shows up here. */
async function blockOffsiteRequests(page: Page, ownOrigin: string): Promise<string[]> {
  const offsite: string[] = [];
  await page.route(
    (url) => url.origin !== ownOrigin,
    (route) => {
      offsite.push(route.request().url());
      return route.abort();
    },
  );
  return offsite;
}

test.describe("after sign-in, only our own origin", () => {
  const variants = [
    "%2F%09%2Fevil.example%2Fphish",
    "%2F%0A%2Fevil.example%2Fphish",
    "%2F%0D%2Fevil.example%2Fphish",
    "%2F%0D%0A%2Fevil.example%2Fphish",
    "%2F%5Cevil.example%2Fphish",
    "%5C%5Cevil.example%2Fphish",
    "%2F%2Fevil.example%2Fphish",
    "%2F.%2F%2Fevil.example%2Fphish",
    "https%3A%2F%2Fevil.example%2Fphish",
  ];

  test.describe("signed in", () => {
    test.use({ storageState: storageStateOf("support") });

    test("the sign-in page never sends a signed-in user to another host, and never fails", async ({ page }) => {
      const ownOrigin = new URL(baseUrl()).origin;
      const offsite = await blockOffsiteRequests(page, ownOrigin);
      for (const variant of variants) {
        const response = await page.goto(`/sign-in?callbackUrl=${variant}`).catch(() => null);
        expect(response?.status(), variant).toBe(200);
        expect(new URL(page.url()).origin, variant).toBe(ownOrigin);
        expect(new URL(page.url()).pathname, variant).toBe("/locations");
      }
      expect(offsite).toEqual([]);
    });
  });

  test("the sign-in form does not send the person on to another host", async ({ browser }) => {
    const password = "a good long password";
    const user = await createUserWithPassword({ email: `phished-${randomSuffix()}@example.test`, role: "support", password });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const ownOrigin = new URL(baseUrl()).origin;
    const offsite = await blockOffsiteRequests(page, ownOrigin);
    await page.goto(`/sign-in?callbackUrl=${variants[0]}`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${ownOrigin}/locations`);
    expect(offsite).toEqual([]);
    await context.close();
  });
});

test("30 simultaneous invitations of one owner: no failure, one account, exactly one live link; it sets the password once", async () => {
  const locationId = await createLocation(`Invited salon ${randomSuffix()}`);
  const email = `rushed-owner-${randomSuffix()}@example.test`;
  const support = await apiAs("support");
  const responses = await Promise.all(
    Array.from({ length: 30 }, () => support.post(`/api/locations/${locationId}/owner-invitations`, { data: { email, name: "" } })),
  );
  const statuses = responses.map((response) => response.status());
  expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const links: string[] = [];
  for (const response of responses) {
    if (response.status() === 201) links.push(((await response.json()) as { invitation: { path: string } }).invitation.path);
  }
  expect(links.length).toBeGreaterThan(0);

  const owners = await database.db.select().from(users).where(eq(users.email, email));
  expect(owners).toHaveLength(1);
  const live = await database.db
    .select()
    .from(userInvites)
    .where(and(eq(userInvites.userId, owners[0]!.id), isNull(userInvites.usedAt)));
  expect(live).toHaveLength(1);
  const liveLinks = links.filter((path) => hashInviteToken(tokenOf(path)) === live[0]!.tokenHash);
  expect(liveLinks).toHaveLength(1);

  const anonymous = await apiAs(null);
  const accepted = await anonymous.post(`/api/invites/${tokenOf(liveLinks[0]!)}`, {
    data: { password: "the owner's own password", passwordConfirmation: "the owner's own password" },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect(await accepted.json()).toMatchObject({ locationId, passwordSet: true });
  for (const path of links) {
    const again = await anonymous.post(`/api/invites/${tokenOf(path)}`, {
      data: { password: "an attacker's password", passwordConfirmation: "an attacker's password" },
    });
    expect(again.status()).toBe(404);
  }
  // With a password set, inviting again only adds the membership: no link exists that could replace it.
  const invitedAgain = await support.post(`/api/locations/${locationId}/owner-invitations`, { data: { email, name: "" } });
  expect(await invitedAgain.json()).toMatchObject({ invitation: { kind: "member_added" } });
  await Promise.all([support.dispose(), anonymous.dispose()]);
});

test("20 simultaneous creations of one user: one 201, the rest 409, one account", async () => {
  const admin = await apiAs("admin");
  const email = `doubled-${randomSuffix()}@example.test`;
  const responses = await Promise.all(Array.from({ length: 20 }, () => admin.post("/api/users", { data: { email, name: "", role: "engineer" } })));
  const statuses = responses.map((response) => response.status()).sort();
  expect(statuses).toEqual([201, ...Array(19).fill(409)]);
  for (const response of responses) {
    if (response.status() === 409) expect(response.headers()["content-type"]).toContain("application/problem+json");
  }
  expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  await admin.dispose();
});

test("signing out revokes the session: a copy of its cookie no longer works, nor renews", async ({ browser }) => {
  const password = "a good long password";
  const user = await createUserWithPassword({ email: `leaving-${randomSuffix()}@example.test`, role: "support", password });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signInThroughForm(page, user.email, password);
  await expect(page).toHaveURL(/\/locations$/);
  const copied = (await context.cookies()).filter((cookie) => cookie.name.endsWith("next-auth.session-token"));
  expect(copied).toHaveLength(1);
  const replay = () => playwrightRequest.newContext({ baseURL: baseUrl(), storageState: { cookies: copied, origins: [] } });

  const before = await replay();
  expect((await before.get("/api/locations")).status()).toBe(200);
  await before.dispose();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const after = await replay();
  const refused = await after.get("/api/locations");
  expect(refused.status()).toBe(401);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  const renewed = await after.get("/api/auth/session");
  expect(await renewed.json()).not.toHaveProperty("userId");
  await after.dispose();

  const thief = await browser.newContext({ storageState: { cookies: copied, origins: [] } });
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/locations");
  await expect(thiefPage).toHaveURL(/\/sign-in/);
  await Promise.all([thief.close(), context.close()]);
});
