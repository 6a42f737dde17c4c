import type { APIRequestContext, APIResponse, Browser, Page } from "@playwright/test";
import { and, eq, inArray } from "drizzle-orm";
import { locations, sandboxLocations, syncSessions } from "../db/schema";
import { sandboxDemo } from "../lib/sandbox/provision";
import { isOutsideSyncWindow } from "../lib/sync/sync-window";
import { apiAs, pointEnvironmentAt } from "./support/api";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { expectAfterIdlePoll } from "./support/idle-poll";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

// Demo Garage: connected by this spec alone (and disconnected again at its end), its schedule paused meanwhile,
// so that only the sessions started here run. The sandbox's delay faults slow the run down enough to watch it.
const garageOwner = sandboxDemo.owners[1];
const database = connectToAppDatabase();
const SYNC_TIMEOUT = 120_000;
const SAMPLE_EVERY_MS = 200;

test.describe.configure({ mode: "serial" });

let garageId = "";

/** Arms or clears the built-in sandbox's faults as an engineer does in the inspector (audited, `sandbox.faults`). */
async function sandboxFaults(method: "POST" | "DELETE", body?: unknown) {
  const api = await apiAs("engineer");
  const response = await api.fetch("/api/sandbox/faults", { method, data: body });
  expect(response.ok(), await response.text()).toBe(true);
  await api.dispose();
}

async function pageAs(browser: Browser, role: "support"): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl() });
  return context.newPage();
}

/** Everything the location page says about the run, read in one go (one rendered frame). */
interface RunSnapshot {
  latestStatus: string | null;
  latestLabel: string;
  latestChips: string[];
  latestNeedsAttention: boolean;
  liveStatus: string | null;
  liveLabel: string | null;
  liveChips: string[] | null;
  connectionBadge: string;
  connectionText: string;
  pageText: string;
}

function snapshotOf(page: Page): Promise<RunSnapshot> {
  return page.evaluate(() => {
    const latest = document.querySelector("[data-testid='latest-session']");
    const live = document.querySelector("[data-testid='live-progress']");
    const connection = document.querySelector("[aria-labelledby='connection-title']");
    const chips = (root: Element | null) =>
      [...(root?.querySelectorAll("ul[aria-label='Steps'] [data-status]") ?? [])].map((chip) => chip.textContent ?? "");
    return {
      latestStatus: latest?.getAttribute("data-status") ?? null,
      latestLabel: latest?.querySelector("dl dd")?.textContent ?? "",
      latestChips: chips(latest),
      latestNeedsAttention: Boolean(latest?.querySelector(":scope > div")?.textContent?.includes("Needs attention")),
      liveStatus: live?.getAttribute("data-status") ?? null,
      liveLabel: live ? (live.querySelector("p span")?.textContent ?? "") : null,
      liveChips: live ? chips(live) : null,
      connectionBadge: connection?.querySelector(":scope > div span")?.textContent ?? "",
      connectionText: connection?.textContent ?? "",
      pageText: document.querySelector("main")?.textContent ?? "",
    };
  });
}

/** Every card, chip and badge tells the same story: the one the live query last read. */
function expectAgreement(snapshot: RunSnapshot) {
  const context = JSON.stringify(snapshot, (key, value) => (key === "pageText" || key === "connectionText" ? undefined : value));
  expect(snapshot.connectionBadge, context).toBe("Connected");
  expect(snapshot.connectionText, context).not.toContain("The last sync");
  const inFlight = snapshot.latestStatus === "queued" || snapshot.latestStatus === "running";
  if (inFlight) {
    expect(snapshot.liveStatus, context).toBe(snapshot.latestStatus);
    expect(snapshot.liveLabel, context).toBe(snapshot.latestLabel);
    expect(snapshot.liveChips, context).toEqual(snapshot.latestChips);
    expect(snapshot.latestNeedsAttention, context).toBe(false);
    expect(snapshot.pageText, context).not.toContain("was cancelled");
    if (snapshot.latestStatus === "running") {
      expect(snapshot.pageText, context).not.toContain("not started");
      expect(snapshot.pageText, context).not.toContain("Waiting for a worker");
      expect(snapshot.pageText, context).not.toContain("No steps yet");
    }
  } else {
    expect(snapshot.liveStatus, context).toBeNull();
  }
}

/** Samples the page every SAMPLE_EVERY_MS, checking that it agrees each time, until `done` holds for a sample. */
async function watchUntil(
  page: Page,
  done: (snapshot: RunSnapshot) => boolean,
  timeout = SYNC_TIMEOUT,
): Promise<{ last: RunSnapshot; seen: RunSnapshot[] }> {
  const seen: RunSnapshot[] = [];
  const deadline = Date.now() + timeout;
  for (;;) {
    const snapshot = await snapshotOf(page);
    expectAgreement(snapshot);
    seen.push(snapshot);
    if (done(snapshot)) return { last: snapshot, seen };
    if (Date.now() > deadline)
      throw new Error(`the location page did not reach the expected state; last: ${JSON.stringify({ ...snapshot, pageText: undefined })}`);
    await page.waitForTimeout(SAMPLE_EVERY_MS);
  }
}

test.beforeAll(async () => {
  const [row] = await database.db.select({ id: locations.id }).from(locations).where(eq(locations.name, "Demo Garage"));
  garageId = row!.id;
  await pointEnvironmentAt("staging");
  const support = await apiAs("support");
  const paused = await support.post(`/api/locations/${garageId}/schedule`, {
    data: { paused: true, reason: "The live run state e2e spec starts every sync of this location itself." },
  });
  expect(paused.status(), await paused.text()).toBe(200);
  const connected = await support.post(`/api/locations/${garageId}/connection`, {
    data: { email: garageOwner.email, password: garageOwner.password },
  });
  expect(connected.status(), await connected.text()).toBe(200);
  await support.dispose();
});

test.afterAll(async () => {
  await sandboxFaults("DELETE");
  const support = await apiAs("support");
  await support.delete(`/api/locations/${garageId}/connection`);
  await support.post(`/api/locations/${garageId}/schedule`, { data: { paused: false } });
  await support.dispose();
  await database.close();
});

test("support syncs, cancels and resumes, and every status on the location page agrees throughout; the history shows each new session unasked", async ({
  browser,
}) => {
  test.setTimeout(3 * SYNC_TIMEOUT);
  // Slow enough to watch: the first run waits on its calendars, the resumed one on its services and contacts.
  await sandboxFaults("POST", { target: "batch_sync_calendars", mode: { kind: "delay", ms: 6000 }, count: 1 });
  try {
    const page = await pageAs(browser, "support");
    // In a context of its own, whose clock moves on to the list's idle poll.
    const history = await pageAs(browser, "support");
    await history.clock.install();
    await history.goto(`/locations/${garageId}/sessions`);
    await expect(history.getByTestId("empty-state")).toContainText("has not synced yet");

    await page.goto(`/locations/${garageId}`);
    // Marks the document: the whole run must be followed by the live query, without a reload.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    expectAgreement(await snapshotOf(page));
    await page.getByRole("button", { name: "Sync now" }).click();
    await page.getByRole("alertdialog", { name: "Sync this location now?" }).getByRole("button", { name: "Start the sync" }).click();

    // Running, at the slowed calendars step: cancel it there.
    await watchUntil(page, (snapshot) => snapshot.latestStatus === "running" && snapshot.latestChips.includes("Calendars: Running"));
    await expectNoSeriousAxeViolations(page);
    await page.getByTestId("live-progress").getByRole("button", { name: "Cancel session" }).click();
    await page.getByRole("alertdialog", { name: "Cancel this sync?" }).getByRole("button", { name: "Cancel the sync" }).click();
    const cancelled = await watchUntil(page, (snapshot) => snapshot.latestStatus === "cancelled");
    expect(cancelled.last.latestLabel).toBe("Cancelled");
    expect(cancelled.last.latestNeedsAttention).toBe(true);
    await expect(page.getByRole("region", { name: "Latest session" })).toContainText("The last sync was cancelled");

    // The history page, left open, shows the session without a reload.
    await expectAfterIdlePoll(history, () =>
      expect(history.getByRole("table", { name: "Sync sessions" }).getByRole("row")).toHaveCount(2, { timeout: 2_000 }),
    );

    await sandboxFaults("POST", { target: "batch_sync_services", mode: { kind: "delay", ms: 3000 }, count: 1 });
    await sandboxFaults("POST", { target: "contact_details", mode: { kind: "delay", ms: 3000 }, count: 1 });
    await page.getByRole("region", { name: "Latest session" }).getByRole("button", { name: "Resume sync" }).click();
    // Outside the location's sync window (the run's real time) Resume sync asks first.
    const [garage] = await database.db.select({ timeZone: locations.timeZone }).from(locations).where(eq(locations.id, garageId));
    if (isOutsideSyncWindow(garage!.timeZone))
      await page.getByRole("alertdialog", { name: "Resume this sync outside business hours?" }).getByRole("button", { name: "Resume sync" }).click();
    // While the resumed session runs, nothing may still say the last sync was cancelled (expectAgreement), until it succeeds.
    const resumed = await watchUntil(page, (snapshot) => snapshot.latestStatus === "succeeded");
    expect(resumed.seen.some((snapshot) => snapshot.latestStatus === "running")).toBe(true);
    expect(resumed.last.latestNeedsAttention).toBe(false);
    expect(resumed.last.latestLabel).toMatch(/^Succeeded/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expectNoSeriousAxeViolations(page);

    await expectAfterIdlePoll(history, () =>
      expect(history.getByRole("table", { name: "Sync sessions" }).getByRole("row")).toHaveCount(3, { timeout: 2_000 }),
    );
    await expect(history.getByRole("table", { name: "Sync sessions" }).getByRole("row").nth(1)).toContainText(/Resume.*Succeeded/);
    await page.context().close();
    await history.context().close();
  } finally {
    await sandboxFaults("DELETE");
  }
});

/** Polls the session until it has finished, as the session page's API reports it. */
async function finishedStatus(api: APIRequestContext, sessionId: string): Promise<string> {
  const deadline = Date.now() + SYNC_TIMEOUT;
  for (;;) {
    const response = await api.get(`/api/sessions/${sessionId}`);
    expect(response.status()).toBe(200);
    const { session } = (await response.json()) as { session: { status: string } };
    if (!["queued", "running"].includes(session.status)) return session.status;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} still ${session.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function sessionIdsOf(api: APIRequestContext): Promise<string[]> {
  const response = await api.get(`/api/locations/${garageId}/sessions`);
  const { items } = (await response.json()) as { items: { id: string }[] };
  return items.map((session) => session.id);
}

const statusesOf = (responses: APIResponse[]) => responses.map((response) => response.status());

test("parallel requests against a running session, over HTTP: one session starts, the open upstream session is neither closed nor moved under it, a disconnect stops it", async () => {
  test.setTimeout(3 * SYNC_TIMEOUT);
  const support = await apiAs("support");
  const [garage] = await database.db.select({ upstreamLocationId: locations.upstreamLocationId }).from(locations).where(eq(locations.id, garageId));
  const before = new Set(await sessionIdsOf(support));
  try {
    // The calendars held 4 s: every request below arrives while the session runs.
    await sandboxFaults("POST", { target: "batch_sync_calendars", mode: { kind: "delay", ms: 4000 }, count: 1 });
    const starts = await Promise.all(Array.from({ length: 20 }, () => support.post(`/api/locations/${garageId}/sessions`, { data: {} })));
    expect(statusesOf(starts).filter((status) => status === 202)).toHaveLength(1);
    expect(statusesOf(starts).filter((status) => status !== 202)).toEqual(Array(19).fill(409));
    const started = (await sessionIdsOf(support)).filter((id) => !before.has(id));
    expect(started).toHaveLength(1);
    const running = started[0]!;

    // While it runs: closing its upstream session, and moving the location to another upstream ID, are refused.
    const [moves, closings] = await Promise.all([
      Promise.all(
        Array.from({ length: 5 }, () => support.patch(`/api/locations/${garageId}`, { data: { upstreamLocationId: "sbx-loc-elsewhere" } })),
      ),
      Promise.all(Array.from({ length: 5 }, () => support.post(`/api/sessions/${running}/close-upstream`))),
    ]);
    expect(statusesOf(moves)).toEqual(Array(5).fill(409));
    expect(statusesOf(closings)).toEqual(Array(5).fill(409));
    expect(await finishedStatus(support, running)).toBe("succeeded");
    const [after] = await database.db.select({ upstreamLocationId: locations.upstreamLocationId }).from(locations).where(eq(locations.id, garageId));
    expect(after?.upstreamLocationId).toBe(garage?.upstreamLocationId);
    const [upstream] = await database.db.select().from(sandboxLocations).where(eq(sandboxLocations.id, garage!.upstreamLocationId!));
    expect(upstream?.syncInProgress).toBe(false);

    // A disconnect in the middle of a run, beside more "Sync now": the run stops, and nothing new starts after it.
    await sandboxFaults("POST", { target: "batch_sync_calendars", mode: { kind: "delay", ms: 4000 }, count: 1 });
    const next = await support.post(`/api/locations/${garageId}/sessions`, { data: {} });
    expect(next.status(), await next.text()).toBe(202);
    const { sessionId: stopped } = (await next.json()) as { sessionId: string };
    const [disconnected, ...more] = await Promise.all([
      support.delete(`/api/locations/${garageId}/connection`),
      ...Array.from({ length: 10 }, () => support.post(`/api/locations/${garageId}/sessions`, { data: {} })),
    ]);
    expect(disconnected.status(), await disconnected.text()).toBe(200);
    expect(statusesOf(more).every((status) => status === 409)).toBe(true);
    expect(await finishedStatus(support, stopped)).toBe("cancelled");
    const open = await database.db
      .select({ id: syncSessions.id })
      .from(syncSessions)
      .where(and(eq(syncSessions.locationId, garageId), inArray(syncSessions.status, ["queued", "running"])));
    expect(open).toEqual([]);
  } finally {
    await sandboxFaults("DELETE");
    await support.dispose();
  }
});
