import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, Page, Response } from "@playwright/test";
import { locations, syncSessions, syncSteps, userInvites } from "../db/schema";
import { databaseAsText } from "../db/testing/database-text";
import { isSealedSecret } from "../lib/crypto/secret-box";
import { sandboxDemo } from "../lib/sandbox/provision";
import { startRecordingProxy, type RecordingProxy } from "../lib/upstream/testing/recording-proxy";
import { apiAs, pointEnvironmentAt } from "./support/api";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { LOG_FILE } from "./support/global-setup";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

// Owners, support and engineers around one demo location, against the built app and its built-in sandbox.
const [sandboxOwner] = sandboxDemo.owners;
const [sandboxStranger] = sandboxDemo.strangers;
const database = connectToAppDatabase();
let proxy: RecordingProxy;

async function locationIdOf(name: string): Promise<string> {
  const [row] = await database.db.select({ id: locations.id }).from(locations).where(eq(locations.name, name));
  if (!row) throw new Error(`no demo location ${name}`);
  return row.id;
}

async function pageAs(browser: Browser, role: "owner" | "support" | "engineer" | "admin"): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl() });
  return context.newPage();
}

async function connectThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel("Marketing Automation Service email").fill(email);
  await page.getByLabel("Marketing Automation Service password").fill(password);
  await page.getByRole("button", { name: /^(Connect|Reconnect)$/ }).click();
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  proxy = await startRecordingProxy(`${baseUrl()}/sandbox/api`);
  await pointEnvironmentAt("staging", proxy.url);
  // Connected inside the sync window, the location would get its daily sync within a minute and race these checks.
  const support = await apiAs("support");
  const paused = await support.post(`/api/locations/${await locationIdOf("Demo Salon North")}/schedule`, {
    data: { paused: true, reason: "The locations e2e spec connects and disconnects this location." },
  });
  expect(paused.status(), await paused.text()).toBe(200);
  await support.dispose();
});

test.afterAll(async () => {
  await pointEnvironmentAt("staging");
  await proxy.close();
  await database.close();
});

test("the demo owner connects their location; a wrong password stores nothing; no secret is left anywhere", async ({ browser }) => {
  const page = await pageAs(browser, "owner");
  const bodies: string[] = [];
  page.on("response", (response: Response) => {
    if (response.url().startsWith(baseUrl())) bodies.push(`${response.url()} ${JSON.stringify(response.headers())}`);
    void response.text().then(
      (text) => bodies.push(text),
      () => {},
    );
  });
  const northId = await locationIdOf("Demo Salon North");
  // The start-up banner lists the sandbox's public demo credentials; only what the flow logged counts.
  const logBefore = readFileSync(LOG_FILE, "utf8").length;

  await page.goto("/locations");
  await page.getByRole("link", { name: "Demo Salon North" }).click();
  await expect(page.getByRole("heading", { name: "Demo Salon North" })).toBeVisible();
  const connection = page.getByRole("region", { name: "Connection" });
  await expect(connection.getByText("Not connected", { exact: true })).toBeVisible();
  await connection.getByRole("link", { name: "Connect" }).click();
  await expect(page).toHaveURL(`/locations/${northId}/connect`);

  await connectThroughForm(page, sandboxOwner.email, "not-the-owner-password");
  await expect(page.getByRole("form", { name: "Connect the location" }).getByRole("alert")).toHaveText(
    "The email or password is wrong for the Marketing Automation Service account. Nothing was stored.",
  );
  await expect(page.getByLabel("Marketing Automation Service password")).toHaveValue("");
  const [afterWrong] = await database.db.select().from(locations).where(eq(locations.id, northId));
  expect(afterWrong).toMatchObject({ locationTokenEncrypted: null, connectedAt: null });

  proxy.exchanges.length = 0;
  await connectThroughForm(page, sandboxOwner.email, sandboxOwner.password);
  await expect(page).toHaveURL(`/locations/${northId}`);
  await expect(connection.getByText("Connected", { exact: true })).toBeVisible();
  await expect(connection.getByText(sandboxOwner.email)).toBeVisible();
  await expect(connection.getByRole("definition").filter({ hasText: sandboxOwner.email })).toBeVisible();
  // Connected at: how long ago, with the whole instant in the location's zone on hover.
  const connectedAt = connection.getByRole("definition").nth(1).locator("time");
  await expect(connectedAt).toHaveText(/^(just now|\d+ \w+ ago)$/);
  await expect(connectedAt).toHaveAttribute("title", /^\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2} \(Europe\/Berlin\)$/);

  const userToken = JSON.parse(proxy.exchanges.find((exchange) => exchange.path === "/v1/access_tokens")!.responseBody).access_token as string;
  const locationToken = JSON.parse(proxy.exchanges.find((exchange) => exchange.path === "/v1/access_tokens/locations/sbx-loc-1001")!.responseBody)
    .access_token as string;
  expect(userToken).toBeTruthy();
  expect(locationToken).toBeTruthy();
  await page.waitForLoadState("networkidle");
  const everything = await databaseAsText(database.db);
  const log = readFileSync(LOG_FILE, "utf8").slice(logBefore);
  const responses = bodies.join("\n");
  for (const [what, secret] of Object.entries({ password: sandboxOwner.password, userToken, locationToken })) {
    expect(everything.includes(secret), `${what} in the database`).toBe(false);
    expect(log.includes(secret), `${what} in the server log`).toBe(false);
    expect(responses.includes(secret), `${what} in a response`).toBe(false);
  }
  const [connected] = await database.db.select().from(locations).where(eq(locations.id, northId));
  expect(isSealedSecret(connected!.locationTokenEncrypted!)).toBe(true);
  await page.context().close();
});

test("the owner's page in plain words: connected, how the last sync went, the paused schedule, whom to write to; no operator controls", async ({
  browser,
}) => {
  const northId = await locationIdOf("Demo Salon North");
  const [session] = await database.db
    .insert(syncSessions)
    .values({ locationId: northId, environment: "staging", trigger: "schedule", status: "succeeded", optionalSteps: [], finishedAt: new Date() })
    .returning({ id: syncSessions.id });
  await database.db.insert(syncSteps).values({ sessionId: session!.id, name: "appointments", position: 6, status: "succeeded", recordsInvalid: 3 });
  try {
    for (const viewport of [
      { name: "desktop", width: 1440, height: 900 },
      { name: "phone", width: 390, height: 844 },
    ]) {
      const context = await browser.newContext({ storageState: storageStateOf("owner"), baseURL: baseUrl(), viewport });
      const page = await context.newPage();
      await page.goto("/locations");
      const table = page.getByRole("table");
      await expect(table.getByRole("columnheader", { name: "Last sync" })).toBeVisible();
      await expect(table.getByRole("columnheader", { name: "Environment" })).toHaveCount(0);
      await expect(page.getByTestId(`location-row-${northId}`)).toContainText("Succeeded with 3 not sent");

      await page.goto(`/locations/${northId}`);
      const main = page.getByRole("main");
      await expect(page.getByRole("region", { name: "Connection" }).getByText("Connected", { exact: true })).toBeVisible();
      await expect(page.getByRole("region", { name: "Connection" }).getByRole("link", { name: "Reconnect" })).toBeVisible();
      await expect(page.getByTestId("owner-last-sync")).toContainText("Succeeded with 3 not sent");
      await expect(page.getByTestId("owner-last-sync")).toContainText("3 records were not sent");
      await expect(page.getByTestId("owner-next-sync")).toContainText(/Paused by the support team (just now|\d+ \w+ ago)/);
      await expect(page.getByTestId("owner-next-sync")).not.toContainText("support@demo.test");
      await expect(main.getByRole("link", { name: "support@location-sync.invalid" })).toHaveAttribute("href", "mailto:support@location-sync.invalid");
      await expect(main.getByRole("button")).toHaveCount(0);
      await expect(main.getByRole("link", { name: /Sync now|Full resync|Preview|Sessions|Edit location/ })).toHaveCount(0);
      expect(await main.innerText()).not.toMatch(/upstream|session|\bstep|staging|sbx-loc|token/i);
      const nav = page.getByRole("navigation", { name: "Main" });
      if (viewport.name === "desktop")
        await expect(nav.getByRole("link", { name: /^(Locations|Sessions|Fleet|Settings)$/ })).toHaveText(["Locations", "Settings"]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoSeriousAxeViolations(page);
      await page.screenshot({ path: `e2e/.artifacts/screenshots/location-owner-connected-${viewport.name}.png`, fullPage: true });
      await context.close();
    }
  } finally {
    await database.db.delete(syncSessions).where(eq(syncSessions.id, session!.id));
  }
});

test("an account that does not own the location is refused with its message", async ({ browser }) => {
  const page = await pageAs(browser, "owner");
  await page.goto(`/locations/${await locationIdOf("Demo Salon South")}/connect`);
  await connectThroughForm(page, sandboxStranger.email, sandboxStranger.password);
  await expect(page.getByRole("form", { name: "Connect the location" }).getByRole("alert")).toHaveText(
    "That account does not own location “sbx-loc-1002” at the Marketing Automation Service. Nothing was stored. Sign in with the account of the location's owner.",
  );
  await expect(page.locator("#upstream-email-error")).toHaveText("is not the owner of this location");
  await page.context().close();
});

test("support invites an owner: the link works once, leads to the connect page, and expires", async ({ browser }) => {
  const support = await pageAs(browser, "support");
  const garageId = await locationIdOf("Demo Garage");
  const email = `garage-owner-${randomSuffix()}@example.test`;
  await support.goto(`/locations/${garageId}`);
  const owners = support.getByRole("region", { name: "Owners" });
  await owners.getByLabel("Owner's email").fill(email);
  await owners.getByRole("button", { name: "Invite owner" }).click();
  const link = await support.getByTestId("invite-link").textContent();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(owners.getByRole("listitem").filter({ hasText: email })).toContainText("Invited");

  const invitee = await browser.newContext({ storageState: { cookies: [], origins: [] }, baseURL: baseUrl() });
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(link!);
  await inviteePage.getByLabel("New password").fill("garage owner password");
  await inviteePage.getByLabel("Repeat the password").fill("garage owner password");
  await inviteePage.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(inviteePage).toHaveURL(`/locations/${garageId}/connect`);
  await expect(inviteePage.getByRole("heading", { name: "Connect Demo Garage" })).toBeVisible();

  await inviteePage.goto(link!);
  await expect(inviteePage.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();

  // The second owner sees their own location only: the first owner's is "not found", on the page and in the API.
  const northId = await locationIdOf("Demo Salon North");
  await inviteePage.goto("/locations");
  await expect(inviteePage.getByRole("link", { name: "Demo Garage" })).toBeVisible();
  await expect(inviteePage.getByRole("link", { name: "Demo Salon North" })).toHaveCount(0);
  const notYours = await inviteePage.goto(`/locations/${northId}`);
  expect(notYours?.status()).toBe(404);
  await expect(inviteePage.getByRole("heading", { name: "Not found" })).toBeVisible();
  for (const [method, path] of [
    ["GET", `/api/locations/${northId}`],
    ["POST", `/api/locations/${northId}/connection`],
    ["POST", `/api/locations/${northId}/connection/test`],
  ] as const) {
    const response = await inviteePage.request.fetch(path, {
      method,
      data: method === "GET" ? undefined : { email: "x@example.test", password: "x" },
    });
    expect(response.status(), `${method} ${path}`).toBe(404);
  }
  await invitee.close();

  // An invitation past its expiry is refused, like a used one.
  const late = `late-owner-${randomSuffix()}@example.test`;
  await owners.getByLabel("Owner's email").fill(late);
  await owners.getByRole("button", { name: "Invite owner" }).click();
  await expect(support.getByTestId("invite-link")).toContainText("/invite/");
  const lateLink = await support.getByTestId("invite-link").textContent();
  await database.db
    .update(userInvites)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(userInvites.locationId, garageId));
  const lateContext = await browser.newContext({ storageState: { cookies: [], origins: [] }, baseURL: baseUrl() });
  const latePage = await lateContext.newPage();
  await latePage.goto(lateLink!);
  await expect(latePage.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await lateContext.close();
  await support.context().close();
});

test("support sees the connected location, reconnects, tests and disconnects it", async ({ browser }) => {
  const page = await pageAs(browser, "support");
  const northId = await locationIdOf("Demo Salon North");
  await page.goto(`/locations/${northId}`);
  const connection = page.getByRole("region", { name: "Connection" });
  await expect(connection.getByText("Connected", { exact: true })).toBeVisible();
  await connection.getByRole("link", { name: "Reconnect" }).click();
  await connectThroughForm(page, sandboxOwner.email, sandboxOwner.password);
  await expect(page).toHaveURL(`/locations/${northId}`);
  await expect(connection.getByRole("definition").filter({ hasText: "support@demo.test" })).toBeVisible();

  await connection.getByRole("button", { name: "Test connection" }).click();
  await expect(connection.getByRole("status")).toHaveText(`Connected: the token acts as ${sandboxOwner.email}.`);

  await connection.getByRole("button", { name: "Disconnect" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Disconnect this location?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(connection.getByText("Connected", { exact: true })).toBeVisible();
  await connection.getByRole("button", { name: "Disconnect" }).click();
  await dialog.getByRole("button", { name: "Disconnect" }).click();
  await expect(connection.getByText("Not connected", { exact: true })).toBeVisible();
  const [row] = await database.db.select().from(locations).where(eq(locations.id, northId));
  expect(row!.locationTokenEncrypted).toBeNull();
  await page.context().close();
});

test("an engineer sees a location read-only", async ({ browser }) => {
  const page = await pageAs(browser, "engineer");
  const northId = await locationIdOf("Demo Salon North");
  await page.goto(`/locations/${northId}`);
  const connection = page.getByRole("region", { name: "Connection" });
  await expect(connection.getByText("Read-only: your role can view the connection but not change it.")).toBeVisible();
  await expect(connection.getByRole("button")).toHaveCount(0);
  await expect(connection.getByRole("link")).toHaveCount(0);
  expect((await page.goto(`/locations/${northId}/connect`))?.status()).toBe(403);
  const response = await page.request.post(`/api/locations/${northId}/connection`, { data: { email: "x@example.test", password: "x" } });
  expect(response.status()).toBe(403);
  await page.context().close();
});
