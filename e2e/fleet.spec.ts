import type { Browser, Page } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { alertChannels, locations, syncSessions, syncSteps } from "../db/schema";
import { createFleetLocation, createFleetSession } from "../lib/fleet/testing/fleet-factories";
import { apiAs } from "./support/api";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { expectAfterIdlePoll } from "./support/idle-poll";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

// Fleet view, fleet matrix, attention badge, alert settings and schedule pause, on data made by the factories.
const database = connectToAppDatabase();
const suffix = randomSuffix();
const names = { failing: `Fleet Failing ${suffix}`, stale: `Fleet Stale ${suffix}`, healthy: `Fleet Healthy ${suffix}` };
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
let failingSessionId = "";
let runningSessionId = "";
let locationIds: string[] = [];
let failingId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const { db } = database;
  const all = {
    calendars: "succeeded",
    service_categories: "succeeded",
    services: "succeeded",
    contact_details: "succeeded",
    appointments: "succeeded",
    openings: "succeeded",
  } as const;
  const failing = await createFleetLocation(db, {
    name: names.failing,
    attentionReason: "The last sync failed at openings: 502.",
    attentionSince: hoursAgo(1.5),
  });
  const stale = await createFleetLocation(db, { name: names.stale });
  const healthy = await createFleetLocation(db, { name: names.healthy });
  failingId = failing.id;
  locationIds = [failing.id, stale.id, healthy.id];
  await createFleetSession(db, { locationId: failing.id, status: "succeeded", createdAt: hoursAgo(30), durationMs: 40_000, steps: all });
  const failed = await createFleetSession(db, {
    locationId: failing.id,
    status: "failed",
    createdAt: hoursAgo(1.5),
    durationMs: 20_000,
    steps: { openings: "failed" },
  });
  failingSessionId = failed.id;
  await createFleetSession(db, { locationId: stale.id, status: "succeeded", createdAt: hoursAgo(30), durationMs: 90_000, steps: all });
  await createFleetSession(db, { locationId: healthy.id, status: "succeeded", createdAt: hoursAgo(2), durationMs: 30_000, steps: all });
  const running = await createFleetSession(db, { locationId: healthy.id, status: "running", createdAt: hoursAgo(0.1) });
  runningSessionId = running.id;
});

test.afterAll(async () => {
  // Left behind, the failing location would change other specs' attention counts.
  await database.db.delete(locations).where(inArray(locations.id, locationIds));
  await database.db.delete(alertChannels);
  await database.close();
});

async function pageAs(
  browser: Browser,
  role: "owner" | "support" | "engineer" | "admin",
  viewport: { width: number; height: number } = { width: 1400, height: 1000 },
): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl(), viewport });
  return context.newPage();
}

test("the fleet view lists failures needing attention first, links each session, and passes axe", async ({ browser }) => {
  const page = await pageAs(browser, "support");
  await page.clock.install();
  await page.goto(`/sessions?q=${encodeURIComponent(`Fleet Failing ${suffix}`)}`);
  const row = page.getByTestId(`fleet-session-${failingSessionId}`);
  await expect(row).toContainText("Needs attention");
  await expect(row.getByRole("link", { name: names.failing })).toHaveAttribute("href", `/locations/${failingId}`);
  await expect(row.getByRole("link", { name: /^Session / })).toHaveAttribute("href", `/sessions/${failingSessionId}`);
  // A session started meanwhile (here: by the factories) shows up without a reload.
  const started = await createFleetSession(database.db, { locationId: failingId, status: "queued", createdAt: new Date() });
  await expectAfterIdlePoll(page, () => expect(page.getByTestId(`fleet-session-${started.id}`)).toContainText("Queued", { timeout: 2_000 }));
  await database.db.delete(syncSessions).where(eq(syncSessions.id, started.id));

  await page.goto("/sessions");
  await expect(page.getByText("Today is the current UTC day.")).toBeVisible();
  await expect(page.getByText("Sessions and failures per day (UTC, last 30 days)")).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  // Running first, then failures of a location that needs attention.
  const texts = await page.locator("tbody tr[data-testid^='fleet-session-']").allTextContents();
  const firstSettled = texts.findIndex((text) => !/running|queued/i.test(text));
  expect(firstSettled).toBeGreaterThan(0);
  expect(texts[firstSettled]).toContain("Needs attention");
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: "e2e/.artifacts/screenshots/fleet-sessions.png", fullPage: true });
});

for (const size of [
  { name: "1440×900", width: 1440, height: 900 },
  { name: "390×844", width: 390, height: 844 },
]) {
  test(`today's counts, the chart's days and the matrix cells link to the sessions they count; filters apply as chosen (${size.name})`, async ({
    browser,
  }) => {
    const page = await pageAs(browser, "support", size);
    await page.goto("/sessions");
    const today = new Date().toISOString().slice(0, 10);
    // Four tiles, each linking to the list it counts: running and queued apart.
    const tile = (label: string) => page.getByRole("link", { name: new RegExp(`^${label}: \\d+, list them$`) });
    await expect(tile("Succeeded today")).toHaveAttribute("href", `/sessions?status=succeeded&ended=${today}`);
    await expect(tile("Queued now")).toHaveAttribute("href", "/sessions?status=queued");
    await tile("Running now").click();
    await expect(page).toHaveURL("/sessions?status=running");
    await expect(page.getByLabel("Status")).toHaveValue("running");
    await expect(page.getByTestId(`fleet-session-${runningSessionId}`)).toBeVisible();
    await page.goto("/sessions");
    await tile("Failed today").click();
    await expect(page).toHaveURL(`/sessions?status=failed&ended=${today}`);
    await expect(page.getByTestId("sessions-day-filter")).toHaveText(`Ended on ${today} (UTC)`);
    await expect(page.getByLabel("Status")).toHaveValue("failed");
    // Another filter keeps the day; the list follows at once (no Apply).
    await page.getByLabel("Trigger").selectOption("manual");
    await expect(page).toHaveURL(new RegExp(`status=failed&trigger=manual&ended=${today}|ended=${today}.*trigger=manual`));
    await page.goto("/sessions");
    await page.getByText("The chart data as a table").click();
    await page.getByRole("link", { name: today, exact: true }).click();
    await expect(page).toHaveURL(`/sessions?created=${today}`);
    await expect(page.getByTestId(`fleet-session-${runningSessionId}`)).toBeVisible();
    await page.goto(`/fleet?q=${encodeURIComponent(names.failing)}`);
    await page.locator("td[data-state='failed']").first().getByRole("link").click();
    await expect(page).toHaveURL(`/locations/${failingId}/sessions`);
    await page.context().close();
  });
}

test("the nav badge counts locations needing attention and links to them", async ({ browser }) => {
  const page = await pageAs(browser, "engineer");
  await page.goto("/sessions");
  const badge = page.getByTestId("attention-badge");
  await expect(badge).toHaveAttribute("href", "/locations?status=needs_attention");
  await badge.click();
  await expect(page).toHaveURL(/status=needs_attention/);
  await expect(page.getByRole("link", { name: names.failing })).toBeVisible();
});

test("the fleet matrix puts the worst first, labels every cell, pauses and resumes a schedule, and passes axe", async ({ browser }) => {
  const page = await pageAs(browser, "support");
  await page.goto(`/fleet?q=${encodeURIComponent(suffix)}`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(names.failing);
  await expect(rows.nth(1)).toContainText(names.stale);
  await expect(rows.nth(2)).toContainText(names.healthy);
  await expect(rows.nth(0).locator("[data-state='failed']")).toContainText("Openings: failed");
  await expect(rows.nth(1).locator("td[data-state='stale']")).toContainText("Openings: stale");
  await expect(rows.nth(2).locator("td[data-state='fresh']")).toHaveCount(6);

  const healthyRow = rows.nth(2);
  await healthyRow.getByRole("button", { name: `Pause the schedule of ${names.healthy}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Pause the daily sync of ${names.healthy}?` });
  await dialog.getByLabel("Why").fill("Owner is importing data");
  await dialog.getByRole("button", { name: "Pause schedule" }).click();
  await expect(healthyRow).toContainText("Owner is importing data");
  await expect(healthyRow).toContainText("Paused by");
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: "e2e/.artifacts/screenshots/fleet-matrix.png", fullPage: true });
  await healthyRow.getByRole("button", { name: `Resume schedule of ${names.healthy}` }).click();
  await expect(healthyRow).not.toContainText("Paused by");

  // The matrix follows the running session: when it ends, having left records out, the row says so without a reload.
  const latestSession = healthyRow.getByTestId("matrix-latest-session");
  await expect(latestSession).toContainText("Running");
  await database.db.insert(syncSteps).values({
    sessionId: runningSessionId,
    name: "appointments",
    position: 6,
    status: "succeeded",
    recordsInvalid: 3,
    recordsExcluded: 2,
    finishedAt: new Date(),
  });
  await database.db.update(syncSessions).set({ status: "succeeded", finishedAt: new Date() }).where(eq(syncSessions.id, runningSessionId));
  await expect(latestSession).toContainText("Succeeded with 5 not sent");
  await expect(latestSession.getByRole("link")).toHaveAttribute("href", `/sessions/${runningSessionId}`);
});

test("engineers see the matrix without pause buttons; owners may not open it", async ({ browser }) => {
  const engineer = await pageAs(browser, "engineer");
  await engineer.goto(`/fleet?q=${encodeURIComponent(suffix)}`);
  await expect(engineer.locator("tbody tr")).toHaveCount(3);
  await expect(engineer.getByRole("button", { name: /Pause the schedule/ })).toHaveCount(0);
  const owner = await pageAs(browser, "owner");
  const response = await owner.goto("/fleet");
  expect(response?.status()).toBe(403);
  await expect(owner.getByRole("link", { name: "Fleet" })).toHaveCount(0);
});

test("admins set the alert webhook, which is shown back only by its last 4 characters; the page passes axe", async ({ browser }) => {
  const page = await pageAs(browser, "admin");
  await page.goto("/settings/alerts");
  await page.getByLabel("Webhook URL").fill("https://hooks.example.test/services/T1/B2/secretTOKEN");
  await page.getByLabel("Recipients").fill("ops@example.test\noncall@example.test");
  await page.getByRole("button", { name: "Save alert channels" }).click();
  await expect(page.getByText("Alert channels saved.")).toBeVisible();
  await expect(page.getByTestId("webhook-status")).toContainText("URL ends in OKEN");
  expect(await page.content()).not.toContain("secretTOKEN");
  await expectNoSeriousAxeViolations(page);

  const api = await apiAs("admin");
  const body = await (await api.get("/api/alerts/channels")).text();
  expect(body).not.toContain("secretTOKEN");
  expect(JSON.parse(body).channels.email.recipients).toEqual(["ops@example.test", "oncall@example.test"]);
  await api.dispose();
});
