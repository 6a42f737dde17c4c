import type { Browser, Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { locations, sandboxEnvironments } from "../db/schema";
import { SyncFixture } from "../lib/sync/fixture/sync-fixture";
import { sandboxDemo } from "../lib/sandbox/provision";
import { apiAs, pointEnvironmentAt } from "./support/api";
import { runCli } from "../lib/cli/testing/run-cli";
import { appDatabaseUrl, connectToAppDatabase } from "./support/database";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";
import { closeToast } from "./support/toast";

// Demo Salon South: connected here and nowhere else (locations.spec connects and disconnects North);
// its schedule stays paused so that no scheduled session races the ones this spec starts.
const [sandboxOwner] = sandboxDemo.owners;
const sandboxSouthId = "sbx-loc-1002";
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

/** Today's `hour`:`minute` at the location, as an instant (a page's clock is set to it to see what the time changes). */
async function localTimeAt(locationId: string, hour: number, minute: number): Promise<Date> {
  const [row] = await database.db.select({ timeZone: locations.timeZone }).from(locations).where(eq(locations.id, locationId));
  return DateTime.fromObject({ hour, minute }, { zone: row!.timeZone }).toJSDate();
}

async function pageAs(browser: Browser, role: "owner" | "support" | "engineer" | "admin"): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl() });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  return context.newPage();
}

/** Arms or clears the built-in sandbox's faults as an engineer does in the inspector (audited, `sandbox.faults`). */
async function sandboxControl(method: "POST" | "DELETE", body?: unknown) {
  const api = await apiAs("engineer");
  const response = await api.fetch("/api/sandbox/faults", { method, data: body });
  expect(response.ok(), await response.text()).toBe(true);
  await api.dispose();
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
  // The demo location's months upload in well under the page's 1 s poll: the first appointments import answers after
  // 6 s, so that the page can be seen following the running step.
  await sandboxControl("POST", { target: "batch_sync_appointments", mode: { kind: "delay", ms: 6_000 }, count: 1 });
  await page.keyboard.press("Enter");

  const watch = panel.getByRole("link", { name: "Watch the session step by step" });
  await expect(watch).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screenshots/location-sync-panel.png", fullPage: true });
  // The toast lies over the link's right half.
  await closeToast(page, "Sync started.");
  await watch.click();
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/);
  firstSessionId = page.url().split("/").at(-1)!;
  // A marker that a reload would wipe: the steps must complete through polling, not navigation.
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
  // The running step is scrolled into view and followed: appointments (its month imports) start below the fold.
  const appointments = page.getByTestId("step-appointments");
  await expect(appointments).toHaveAttribute("data-status", "running", { timeout: SYNC_TIMEOUT });
  await expect(appointments).toHaveAttribute("aria-current", "step");
  await expect(appointments).toBeInViewport();
  for (const step of ["open", "contact_details", "appointments", "openings", "close"]) {
    await expect(page.getByTestId(`step-${step}`)).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
  }
  await sandboxControl("DELETE");
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

test("an engineer replays today's appointments with a reason; the session sends that step alone and says why", async ({ browser }) => {
  test.setTimeout(SYNC_TIMEOUT + 30_000);
  const page = await pageAs(browser, "engineer");
  await page.goto(`/locations/${southId}`);
  await page.getByRole("button", { name: "Replay…" }).click();
  const dialog = page.getByRole("dialog", { name: "Send steps again" });
  await expect(dialog.getByRole("checkbox", { name: "Appointments" })).toBeChecked();
  const today = new Date().toISOString().slice(0, 10);
  await dialog.getByLabel("Appointments from").fill(today);
  await dialog.getByLabel("to", { exact: true }).fill(today);
  await dialog.getByRole("button", { name: "Start the replay" }).click();
  // The reason is required: the field says so and nothing starts.
  await expect(dialog.getByText("say why this is sent again")).toBeVisible();
  await dialog.getByLabel(/^Why/).fill("The upstream lost today's bookings");
  await dialog.getByRole("button", { name: "Start the replay" }).click();
  await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("session-replay")).toHaveText(`Replay of Appointments, ${today} – ${today}: “The upstream lost today's bookings”`);
  await expect(page.getByTestId("step-appointments")).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
  for (const step of ["contact_details", "openings", "services"])
    await expect(page.getByTestId(`step-${step}`)).toHaveAttribute("data-status", "skipped");
  await page.context().close();
});

test("an engineer exports a failed import as a fixture: its records and redacted requests, none of the secrets", async ({ browser }) => {
  test.setTimeout(SYNC_TIMEOUT + 30_000);
  // An upstream setting the client cannot see: the demo environment now wants RFC 3339 date-times, so it refuses the
  // first month of appointments of a full resync.
  const setStyle = (style: "spec" | "rfc3339") =>
    database.db.update(sandboxEnvironments).set({ dateTimeStyle: style }).where(eq(sandboxEnvironments.name, sandboxDemo.environmentName));
  await setStyle("rfc3339");
  try {
    const support = await apiAs("support");
    const started = await support.post(`/api/locations/${southId}/sessions`, { data: { full: true } });
    expect(started.status(), await started.text()).toBe(202);
    const { sessionId } = (await started.json()) as { sessionId: string };
    await support.dispose();

    const page = await pageAs(browser, "engineer");
    await page.goto(`/sessions/${sessionId}`);
    const appointments = page.getByTestId("step-appointments");
    await expect(appointments).toHaveAttribute("data-status", "failed", { timeout: SYNC_TIMEOUT });
    const failed = appointments.locator('[data-testid="item-row"][data-status="failed"]');
    const download = page.waitForEvent("download");
    await failed.getByRole("link", { name: /^Export fixture/ }).click();
    const fixture = SyncFixture.parse(JSON.parse(await readFile((await (await download).path())!, "utf8")));
    expect(fixture.item).toMatchObject({ step: "appointments" });
    expect(fixture.records.length).toBeGreaterThan(0);
    expect(fixture.failure.status).toBe(422);
    expect(fixture.exchange.map((attempt) => `${attempt.method} ${attempt.status}`)).toContain("PUT 422");
    const text = JSON.stringify(fixture);
    for (const secret of [sandboxDemo.apiKey, sandboxDemo.clientSecret, sandboxOwner.password]) expect(text).not.toContain(secret);
    await page.context().close();
  } finally {
    await setStyle("spec");
  }
});

for (const viewport of [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`an engineer reads the session as a waterfall and opens a request's redacted exchange (${viewport.name})`, async ({ browser }) => {
    const page = await pageAs(browser, "engineer");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/sessions/${firstSessionId}`);
    const timeline = page.getByRole("region", { name: "Timeline" });
    await expect(timeline).toBeVisible();
    // Millisecond offsets from the session start on the axis and every row.
    await expect(timeline.getByText(/^\+0\.000 s/).first()).toBeVisible();
    const contacts = page.getByTestId("step-contact_details");
    await expect(contacts).toContainText(/\+\d+\.\d{3} s · [\d,]+ ms/);
    const toggle = contacts.getByRole("button", { name: /^Show the Contact details rows/ });
    if (await toggle.count()) await toggle.click();
    // Requests are numbered once across the session; none says "Try 1" beside the engine's runs.
    const request = contacts.getByRole("button", { name: /^Request #\d+ POST \S*contact_details\/batch_create_or_update 200 / }).first();
    await expect(request).toBeVisible();
    await expect(page.getByText(/^Try \d/)).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/session-waterfall-${viewport.name}.png`, fullPage: true });

    await request.click();
    const panel = page.getByRole("dialog");
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { name: /^Request #\d+: POST 200$/ })).toBeVisible();
    await expect(panel).toContainText("/contact_details/batch_create_or_update");
    const requestSection = panel.getByRole("region", { name: "Request" });
    const requestHeaders = requestSection.getByLabel("Request headers");
    await expect(requestHeaders).toContainText("x-api-key[REDACTED]");
    await expect(requestHeaders).toContainText("authorization[REDACTED]");
    // The one-time upload address the service answered is shown by its host only.
    const response = panel.getByRole("region", { name: "Response" });
    await expect(response).toContainText(/"put_data_url":"[^"/]+\/\[REDACTED\]"/);
    await expect(response).toContainText(/Response body \(\d+ B\)/);
    const shown = (await panel.textContent()) ?? "";
    for (const secret of [sandboxDemo.apiKey, sandboxDemo.clientSecret, sandboxOwner.password]) expect(shown).not.toContain(secret);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/session-attempt-panel-${viewport.name}.png` });
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
    await expect(request).toBeFocused();

    await expect(page.getByRole("button", { name: /^(Resume sync|Cancel session|Close upstream session)$/ })).toHaveCount(0);
    await page.goto(`/locations/${southId}`);
    await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
    await expect(page.getByText("Engineers see syncs read-only")).toBeVisible();
    await page.context().close();
  });
}

async function injectFaultInInspector(page: Page, target: string) {
  await page.goto(`/settings/sandbox?location=${sandboxSouthId}`);
  const form = page.getByRole("form", { name: "Inject a fault" });
  await form.getByLabel("Endpoint").selectOption(target);
  await form.getByLabel("Fault").selectOption({ label: "Answer 503 Service Unavailable" });
  await form.getByRole("button", { name: "Inject fault" }).click();
  await expect(page.getByText(`Armed: ${target} answers 503 until cleared.`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Armed faults" })).toContainText(target);
}

test("the admin arms and clears a fault in the sandbox inspector on a phone", async ({ browser }) => {
  const inspector = await pageAs(browser, "admin");
  await inspector.setViewportSize({ width: 390, height: 844 });
  try {
    await injectFaultInInspector(inspector, "batch_sync_services");
    await expectNoSeriousAxeViolations(inspector);
    await inspector.screenshot({ path: "e2e/.artifacts/screenshots/sandbox-inspector-fault-phone.png", fullPage: true });
    await inspector.getByRole("button", { name: "Clear the batch_sync_services fault" }).click();
    await expect(inspector.getByText("No fault armed: the sandbox answers normally.")).toBeVisible();
  } finally {
    await inspector.context().close();
    await sandboxControl("DELETE");
  }
});

// The whole story once, at desktop size: the phone's controls are the same form (above).
for (const [role, viewport] of [["engineer", { name: "desktop", width: 1440, height: 900 }]] as const) {
  test(`the ${role} arms a 5xx in the sandbox inspector, the next sync fails on it, they clear it, support resumes and it succeeds (${viewport.name})`, async ({
    browser,
  }) => {
    test.setTimeout(2 * SYNC_TIMEOUT + 90_000);
    const inspector = await pageAs(browser, role);
    await inspector.setViewportSize({ width: viewport.width, height: viewport.height });
    try {
      await injectFaultInInspector(inspector, "batch_sync_services");
      await expectNoSeriousAxeViolations(inspector);
      await inspector.screenshot({ path: `e2e/.artifacts/screenshots/sandbox-inspector-fault-${viewport.name}.png`, fullPage: true });

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
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(`/sessions/${sessionId}`);
      const services = page.getByTestId("step-services");
      await expect(services).toHaveAttribute("data-status", "failed", { timeout: SYNC_TIMEOUT });
      // A failed step is open: its requests show the 503 each time, the error once.
      await expect(services.getByRole("button", { name: /^Request #\d+ POST \S*batch_sync_services 503 / }).first()).toBeVisible();
      const errors = await page.getByText(/batch_sync_services answered 503/).count();
      expect(errors, "the error is shown once").toBe(1);
      await expect(page.getByRole("button", { name: "Close upstream session" })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
      await page.screenshot({ path: `e2e/.artifacts/screenshots/session-failed-${viewport.name}.png`, fullPage: true });

      await page.goto(`/locations/${southId}`);
      await expect(page.getByText("Needs attention", { exact: true }).first()).toBeVisible();

      // The inspector shows the sandbox answering 503, then clears the fault.
      await inspector.goto(`/settings/sandbox?location=${sandboxSouthId}`);
      await expect(inspector.getByRole("table", { name: "Requests received" })).toContainText("503");
      await inspector.getByRole("button", { name: "Clear the batch_sync_services fault" }).click();
      await expect(inspector.getByText("No fault armed: the sandbox answers normally.")).toBeVisible();

      // At 10:30 at the location nothing warns; at 22:30 resuming and closing say they may trigger campaigns at night.
      await page.clock.setFixedTime(await localTimeAt(southId, 10, 30));
      await page.goto(`/sessions/${sessionId}`);
      await expect(page.getByRole("button", { name: "Resume sync" })).toBeVisible();
      await expect(page.getByRole("note").filter({ hasText: /now may trigger campaigns/ })).toHaveCount(0);
      await page.clock.setFixedTime(await localTimeAt(southId, 22, 30));
      await page.reload();
      await expect(page.getByRole("note").filter({ hasText: "resuming now may trigger campaigns outside business hours" })).toBeVisible();
      await page.getByRole("button", { name: "Close upstream session" }).click();
      const closing = page.getByRole("alertdialog", { name: "Close the upstream session?" });
      await expect(closing.getByRole("note")).toContainText("closing it now may trigger campaigns outside business hours");
      await closing.getByRole("button", { name: "Cancel" }).click();
      // Outside the window Resume sync asks first, with the same warning.
      await page.getByRole("button", { name: "Resume sync" }).click();
      const resuming = page.getByRole("alertdialog", { name: "Resume this sync outside business hours?" });
      await expect(resuming.getByRole("note")).toContainText("resuming now may trigger campaigns outside business hours");
      await resuming.getByRole("button", { name: "Resume sync" }).click();
      await expect(page).not.toHaveURL(new RegExp(sessionId));
      await expect(page.getByText("Resume", { exact: true }).first()).toBeVisible();
      await expect(page.getByTestId("step-close")).toHaveAttribute("data-status", "succeeded", { timeout: SYNC_TIMEOUT });
      await page.goto(`/locations/${southId}`);
      await expect(page.getByRole("region", { name: "Latest session" }).getByText(SUCCEEDED)).toBeVisible();
      await expect(page.getByText("Needs attention", { exact: true })).toHaveCount(0);
      // Sync now warns by the browser's clock (22:30 at the location), whatever the server's said when it rendered.
      await page.getByRole("button", { name: "Sync now" }).click();
      const syncing = page.getByRole("alertdialog", { name: "Sync this location now?" });
      await expect(syncing.getByRole("note")).toContainText("a sync now may trigger campaigns outside business hours");
      await syncing.getByRole("button", { name: "Cancel" }).click();
      await page.clock.setFixedTime(await localTimeAt(southId, 10, 30));
      await page.reload();
      await page.getByRole("button", { name: "Sync now" }).click();
      await expect(page.getByRole("alertdialog", { name: "Sync this location now?" })).toBeVisible();
      await expect(page.getByRole("note").filter({ hasText: /now may trigger campaigns/ })).toHaveCount(0);
      await page.getByRole("alertdialog", { name: "Sync this location now?" }).getByRole("button", { name: "Cancel" }).click();
      await page.context().close();
    } finally {
      await inspector.context().close();
      await sandboxControl("DELETE");
    }
  });
}

test("support may not arm sandbox faults; the inspector pages its requests newest first", async ({ browser }) => {
  const support = await apiAs("support");
  const refused = await support.post("/api/sandbox/faults", { data: { target: "batch_sync_services", mode: { kind: "status", status: 503 } } });
  expect(refused.status()).toBe(403);
  await support.dispose();

  for (const viewport of [
    { name: "desktop", width: 1440, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    const page = await pageAs(browser, "engineer");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/settings/sandbox?location=${sandboxSouthId}`);
    const requests = page.getByRole("table", { name: "Requests received" });
    await expect(requests.getByRole("row")).toHaveCount(51);
    const newest = await requests.getByRole("row").nth(1).textContent();
    await page.getByRole("link", { name: "Older requests" }).click();
    await expect(page).toHaveURL(/before=\d+/);
    await expect(requests.getByRole("row").nth(1)).not.toHaveText(newest ?? "");
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/sandbox-inspector-older-${viewport.name}.png`, fullPage: true });
    await page.getByRole("link", { name: "Newest requests" }).click();
    await expect(page).not.toHaveURL(/before=/);
    await expect(requests.getByRole("row").nth(1)).toHaveText(newest ?? "");
    await page.context().close();
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

    await page.clock.setFixedTime(await localTimeAt(southId, 21, 15));
    await page.goto(`/sessions/${sessionId}`);
    await stop.getByRole("button", { name: "Confirm and send…" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm and send these removals?" });
    await expect(dialog.getByRole("note")).toContainText("confirming now may trigger campaigns outside business hours");
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

test("an owner may not open sessions, even their own location's (403), and reads the outcome on the location page", async ({ browser }) => {
  const page = await pageAs(browser, "owner");
  for (const path of [`/locations/${southId}/sessions`, `/sessions/${firstSessionId}`, "/sessions", `/locations/${southId}/preview`]) {
    expect((await page.goto(path))?.status(), path).toBe(403);
  }
  for (const [method, path] of [
    ["GET", `/api/sessions/${firstSessionId}`],
    ["GET", `/api/locations/${southId}/sessions`],
    ["POST", `/api/locations/${southId}/sessions`],
    ["POST", `/api/locations/${southId}/preview`],
    ["GET", `/api/locations/${southId}/preview`],
  ] as const) {
    const response = await page.request.fetch(path, { method, data: method === "POST" ? {} : undefined });
    expect(response.status(), `${method} ${path}`).toBe(403);
  }
  await page.goto(`/locations/${southId}`);
  await expect(page.getByTestId("owner-last-sync")).toBeVisible();
  await expect(page.getByRole("button", { name: /Sync now|Full resync/ })).toHaveCount(0);
  await page.context().close();
});
