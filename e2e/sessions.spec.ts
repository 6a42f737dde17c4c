import type { Browser, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { locations, syncSessions } from "../db/schema";
import { sandboxDemo } from "../lib/sandbox/provision";
import { apiAs, pointEnvironmentAt } from "./support/api";
import { runCli } from "../lib/cli/testing/run-cli";
import { appDatabaseUrl, connectToAppDatabase } from "./support/database";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

// Demo Salon South: connected here and nowhere else (locations.spec connects and disconnects North);
// its schedule stays paused so that no scheduled session races the ones this spec starts.
const [sandboxOwner] = sandboxDemo.owners;
const database = connectToAppDatabase();
const SYNC_TIMEOUT = 90_000;
// The demo data holds invalid and excluded records: a successful sync says how many it left out.
const SUCCEEDED = /^Succeeded( with [\d,]+ not sent)?$/;

test.describe.configure({ mode: "serial" });
test.afterAll(() => database.close());

async function locationIdOf(name: string): Promise<string> {
  const [row] = await database.db.select({ id: locations.id }).from(locations).where(eq(locations.name, name));
  if (!row) throw new Error(`no demo location ${name}`);
  return row.id;
}

async function pageAs(browser: Browser, role: "owner" | "support" | "engineer" | "admin"): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl() });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  return context.newPage();
}

async function sandboxControl(method: "POST" | "DELETE", body?: unknown) {
  const api = await apiAs(null);
  const response = await api.fetch("/sandbox/control/faults", { method, headers: { "x-api-key": sandboxDemo.apiKey }, data: body });
  expect(response.ok(), await response.text()).toBe(true);
  await api.dispose();
}

async function sessionIdsOf(locationId: string): Promise<string[]> {
  const rows = await database.db.select({ id: syncSessions.id }).from(syncSessions).where(eq(syncSessions.locationId, locationId));
  return rows.map((row) => row.id);
}

let southId = "";
let firstSessionId = "";

test.beforeAll(async () => {
  southId = await locationIdOf("Demo Salon South");
  await pointEnvironmentAt("staging");
  const support = await apiAs("support");
  // Paused before connecting: the daily schedule would otherwise start its own first sync within a minute.
  const paused = await support.post(`/api/locations/${southId}/schedule`, {
    data: { paused: true, reason: "The sessions e2e spec starts every sync of this location itself." },
  });
  expect(paused.status(), await paused.text()).toBe(200);
  const connected = await support.post(`/api/locations/${southId}/connection`, {
    data: { email: sandboxOwner.email, password: sandboxOwner.password },
  });
  expect(connected.status(), await connected.text()).toBe(200);
  await support.dispose();
});

test("support starts a sync from the location page with the keyboard and watches the steps complete live", async ({ browser }) => {
  test.setTimeout(SYNC_TIMEOUT + 60_000);
  const page = await pageAs(browser, "support");
  await page.goto(`/locations/${southId}`);
  const panel = page.getByRole("region", { name: "Preview and sync" });
  await expectNoSeriousAxeViolations(page);

  // Sync now is the header's primary action; the optional steps are chosen in its confirmation.
  const syncNow = page.getByRole("button", { name: "Sync now" });
  await syncNow.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Sync this location now?" });
  await expect(dialog.getByRole("group", { name: "Optional steps" }).getByRole("checkbox")).toHaveCount(3);
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(syncNow).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Start the sync" })).toBeFocused();
  await page.keyboard.press("Enter");

  const watch = panel.getByRole("link", { name: "Watch the session step by step" });
  await expect(watch).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screenshots/location-sync-panel.png", fullPage: true });
  await watch.click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  firstSessionId = page.url().split("/").at(-1)!;
  // A marker that a reload would wipe: the steps must complete through polling, not navigation.
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
  for (const step of ["open", "contact_details", "appointments", "openings", "close"]) {
    await expect(page.getByTestId(`step-${step}`)).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
  }
  await expect(page.getByText(SUCCEEDED).first()).toBeVisible();
  // What the session left out, each step's records linked to the preview filtered to them.
  const notSent = page.getByRole("region", { name: "Records not sent" });
  await expect(page.getByText(/^Succeeded with [\d,]+ not sent$/)).toBeVisible();
  await expect(notSent.getByRole("link", { name: /^[\d,]+ (invalid|excluded by rule)$/ }).first()).toHaveAttribute(
    "href",
    new RegExp(`^/locations/${southId}/preview\\?type=[a-z_]+&status=(error|excluded)$`),
  );
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: "e2e/.artifacts/screenshots/session-page.png", fullPage: true });

  await page.getByRole("button", { name: "Copy as JSON" }).click();
  await expect(page.getByText("Copied the session as JSON.")).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied).toMatchObject({ session: { id: firstSessionId, status: "succeeded" }, includesAttempts: true });
  const contactStep = (copied.steps as { name: string; recordsSent: number; items: unknown[] }[]).find((step) => step.name === "contact_details");
  expect(contactStep?.recordsSent, "a first sync sends the demo location's valid contacts").toBeGreaterThan(0);
  // One shape everywhere: the CLI prints the same JSON for the session as the API answered "Copy as JSON" with.
  const printed = await runCli(appDatabaseUrl(), ["session", firstSessionId, "--json"]);
  expect(printed.stderr).toBe("");
  expect(JSON.parse(printed.stdout)).toEqual(copied);
  await page.goto(`/locations/${southId}`);
  await expect(page.getByRole("region", { name: "Latest session" }).getByText(SUCCEEDED)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: "e2e/.artifacts/screenshots/location-page.png", fullPage: true });
  await page.context().close();
});

test("after the sync the preview counts against what the upstream accepted: nothing new or changed", async ({ browser }) => {
  const page = await pageAs(browser, "support");
  await page.goto(`/locations/${southId}/preview?type=contact_details`);
  // The session's own run is counted by the preview.count job once the session ended; the page reloads when it is in.
  await expect(page.getByTestId("count-new")).toHaveText("0", { timeout: 30_000 });
  await expect(page.getByTestId("count-changed")).toHaveText("0");
  expect(Number((await page.getByTestId("count-valid").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
  await page.context().close();
});

test("an engineer reads the attempts of the contact details step, without any action button", async ({ browser }) => {
  const page = await pageAs(browser, "engineer");
  await page.goto(`/sessions/${firstSessionId}`);
  const contacts = page.getByTestId("step-contact_details");
  await contacts
    .getByText(/^\d+ HTTP attempts?$/)
    .first()
    .click();
  const attempts = contacts.getByRole("table").first();
  await expect(attempts).toBeVisible();
  await expect(attempts).toContainText("POST");
  await expect(attempts).toContainText("contact_details/batch_create_or_update");
  await expect(attempts.getByRole("cell", { name: "200", exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Resume|Cancel session|Close upstream session)$/ })).toHaveCount(0);
  await page.goto(`/locations/${southId}`);
  await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
  await expect(page.getByText("Engineers see syncs read-only")).toBeVisible();
  await page.context().close();
});

test("with a permanent 5xx injected, support sees the failed step and needs attention, clears the fault, resumes, and it succeeds", async ({
  browser,
}) => {
  test.setTimeout(2 * SYNC_TIMEOUT + 60_000);
  await sandboxControl("POST", { target: "batch_sync_services", mode: { kind: "status", status: 503 }, count: 10_000 });
  try {
    const support = await apiAs("support");
    const started = await support.post(`/api/locations/${southId}/sessions`, { data: { full: false } });
    expect(started.status(), await started.text()).toBe(202);
    const { sessionId, outsideWindow } = (await started.json()) as { sessionId: string; outsideWindow: boolean };
    expect(typeof outsideWindow).toBe("boolean");
    const conflict = await support.post(`/api/locations/${southId}/sessions`, { data: {} });
    expect(conflict.status()).toBe(409);
    expect((await conflict.json()).detail).toContain(sessionId);
    await support.dispose();

    const page = await pageAs(browser, "support");
    await page.goto(`/sessions/${sessionId}`);
    const services = page.getByTestId("step-services");
    await expect(services).toHaveAttribute("data-status", "failed", { timeout: SYNC_TIMEOUT });
    await expect(services).toContainText("503");
    await expect(services.getByRole("table").first()).toContainText("503");
    await expect(page.getByRole("button", { name: "Close upstream session" })).toBeVisible();

    await page.goto(`/locations/${southId}`);
    await expect(page.getByText("Needs attention", { exact: true }).first()).toBeVisible();
    await sandboxControl("DELETE");

    await page.goto(`/sessions/${sessionId}`);
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page).not.toHaveURL(new RegExp(sessionId));
    await expect(page.getByText("Resume", { exact: true }).first()).toBeVisible();
    await expect(page.getByTestId("step-close")).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
    await page.goto(`/locations/${southId}`);
    await expect(page.getByRole("region", { name: "Latest session" }).getByText(SUCCEEDED)).toBeVisible();
    await expect(page.getByText("Needs attention", { exact: true })).toHaveCount(0);
    await page.context().close();
  } finally {
    await sandboxControl("DELETE");
  }
});

test("a source that suddenly returns nothing stops the sync before it sends anything; support confirms with a reason and it sends", async ({
  browser,
}) => {
  test.setTimeout(2 * SYNC_TIMEOUT + 60_000);
  const support = await apiAs("support");
  // The location now reads a source with no rows at all: the next sync would unsubscribe every customer.
  const emptied = await support.patch(`/api/locations/${southId}`, { data: { sourceKey: "e2e-empty-source" } });
  expect(emptied.status(), await emptied.text()).toBe(200);
  try {
    const started = await support.post(`/api/locations/${southId}/sessions`, { data: { full: false } });
    expect(started.status(), await started.text()).toBe(202);
    const { sessionId } = (await started.json()) as { sessionId: string };

    const page = await pageAs(browser, "support");
    await page.goto(`/sessions/${sessionId}`);
    const stop = page.getByRole("region", { name: "Needs attention: stopped before sending anything" });
    await expect(stop).toBeVisible({ timeout: SYNC_TIMEOUT });
    await expect(stop).toContainText(/Unsubscribe [\d,]+ of the [\d,]+ contacts/);
    await expect(page.getByTestId("step-open")).toHaveAttribute("data-status", "pending");
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: "e2e/.artifacts/screenshots/session-removal-stop.png", fullPage: true });
    await page.goto(`/locations/${southId}`);
    await expect(page.getByText(/The last sync stopped before sending anything/).first()).toBeVisible();

    await page.goto(`/sessions/${sessionId}`);
    await stop.getByRole("button", { name: "Confirm and send…" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm and send these removals?" });
    await dialog.getByLabel("Why are these removals right?").fill("e2e: the location moved to an empty source on purpose");
    await dialog.getByRole("button", { name: "Confirm and send" }).click();
    await expect(page).not.toHaveURL(new RegExp(sessionId));
    await expect(page.getByText(/Removals confirmed by support@demo.test/)).toBeVisible();
    await expect(page.getByTestId("step-close")).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
    await page.context().close();
  } finally {
    const restored = await support.patch(`/api/locations/${southId}`, { data: { sourceKey: "demo-salon-south" } });
    expect(restored.status(), await restored.text()).toBe(200);
    await support.dispose();
  }
});

test("an owner sees their own location's history and gets 404 on another location's session", async ({ browser }) => {
  const garageId = await locationIdOf("Demo Garage");
  const [foreign] = await database.db
    .insert(syncSessions)
    .values({ locationId: garageId, environment: "staging", trigger: "cli", status: "succeeded", optionalSteps: [], finishedAt: new Date() })
    .returning({ id: syncSessions.id });
  const page = await pageAs(browser, "owner");
  await page.goto(`/locations/${southId}/sessions`);
  const table = page.getByRole("table", { name: "Sync sessions" });
  await expect(table.getByRole("row")).toHaveCount(1 + (await sessionIdsOf(southId)).length);
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Trigger").selectOption("resume");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/trigger=resume/);
  await expect(table.getByRole("row")).toHaveCount(2);

  await page.goto(`/sessions/${firstSessionId}`);
  await expect(page.getByTestId("step-contact_details")).toBeVisible();
  await expect(page.getByTestId("step-contact_details").getByRole("table")).toHaveCount(0);
  expect((await page.request.get(`/api/sessions/${firstSessionId}`).then((response) => response.json())).includesAttempts).toBe(false);

  const foreignPage = await page.goto(`/sessions/${foreign!.id}`);
  expect(foreignPage?.status()).toBe(404);
  expect((await page.request.get(`/api/sessions/${foreign!.id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/locations/${garageId}/sessions`)).status()).toBe(404);
  await page.context().close();
});
