import { apiAs, createUserWithPassword } from "./support/api";
import { randomSuffix } from "./support/canary-values";
import { storageStateOf } from "./support/roles";
import { expect, signInThroughForm, test } from "./support/test";

test.describe("headers", () => {
  test.use({ storageState: storageStateOf("support") });

  test("a signed-in page carries a nonce CSP that its scripts match, framing and sniffing are off, nothing is cached", async ({ page }) => {
    const response = await page.goto("/locations");
    const headers = response!.headers();
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("'strict-dynamic'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["cache-control"]).toContain("no-store");
    const scriptNonces = await page.locator("script[src]").evaluateAll((scripts) => scripts.map((script) => (script as HTMLScriptElement).nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    // The page is interactive under that policy: client components hydrated.
    await page.getByRole("link", { name: "Sessions" }).click();
    await expect(page).toHaveURL(/\/sessions$/);

    const second = await page.request.get("/locations");
    expect(/'nonce-([^']+)'/.exec(second.headers()["content-security-policy"] ?? "")?.[1]).not.toBe(nonce);
  });
});

test("a state-changing request from another origin is refused and changes nothing", async () => {
  const admin = await apiAs("admin");
  const email = `csrf-${randomSuffix()}@example.test`;
  const refused = await admin.post("/api/users", {
    data: { email, name: "", role: "admin" },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  const list = await (await admin.get("/api/users")).json();
  expect(list.users.map((user: { email: string }) => user.email)).not.toContain(email);
  await admin.dispose();
});

test("deactivating a user ends their session on their next request", async ({ browser }) => {
  const user = await createUserWithPassword({ email: `leaver-${randomSuffix()}@example.test`, role: "support", password: "a good long password" });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signInThroughForm(page, user.email, "a good long password");
  await expect(page).toHaveURL(/\/locations$/);

  const admin = await apiAs("admin");
  expect((await admin.patch(`/api/users/${user.id}`, { data: { active: false } })).ok()).toBe(true);

  await page.goto("/sessions");
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await page.request.get("/api/users")).status()).toBe(401);
  await Promise.all([context.close(), admin.dispose()]);
});

test("demoting a user takes effect on their next request", async ({ browser }) => {
  const user = await createUserWithPassword({ email: `demoted-${randomSuffix()}@example.test`, role: "admin", password: "a good long password" });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signInThroughForm(page, user.email, "a good long password");
  await expect(page).toHaveURL(/\/locations$/);
  expect((await page.goto("/settings/users"))!.status()).toBe(200);

  const admin = await apiAs("admin");
  expect((await admin.patch(`/api/users/${user.id}`, { data: { role: "support" } })).ok()).toBe(true);

  expect((await page.goto("/settings/users"))!.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  expect((await page.request.get("/api/users")).status()).toBe(403);
  await Promise.all([context.close(), admin.dispose()]);
});
