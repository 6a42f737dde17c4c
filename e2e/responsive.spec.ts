import type { Browser, Page } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { locations } from "../db/schema";
import type { Role } from "../lib/auth/roles";
import { createFleetLocation, createFleetSession } from "../lib/fleet/testing/fleet-factories";
import { createUserWithPassword } from "./support/api";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, signInThroughForm, test } from "./support/test";

// Every main page at a desktop and a phone size, as the role that uses it: nothing scrolls sideways, axe-clean, a
// screenshot of each; the phone's navigation sheet; the empty states.
const sizes = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Size = (typeof sizes)[number];
const [desktop, phone] = sizes;

const database = connectToAppDatabase();
const suffix = randomSuffix();
const ids = { demo: "", synced: "", neverSynced: "", session: "" };
const createdLocationIds: string[] = [];

test.beforeAll(async () => {
  const { db } = database;
  const [demo] = await db.select({ id: locations.id }).from(locations).where(eq(locations.name, "Demo Salon North"));
  ids.demo = demo!.id;
  // Not connected, so that the daily schedule leaves them alone.
  const synced = await createFleetLocation(db, { name: `Responsive Synced ${suffix}`, locationTokenEncrypted: null });
  const neverSynced = await createFleetLocation(db, { name: `Responsive Never Synced ${suffix}`, locationTokenEncrypted: null });
  createdLocationIds.push(synced.id, neverSynced.id);
  ids.synced = synced.id;
  ids.neverSynced = neverSynced.id;
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  await createFleetSession(db, {
    locationId: synced.id,
    status: "succeeded",
    createdAt: hoursAgo(26),
    durationMs: 42_000,
    steps: { calendars: "succeeded", services: "succeeded", contact_details: "succeeded", appointments: "succeeded", openings: "succeeded" },
  });
  const failed = await createFleetSession(db, {
    locationId: synced.id,
    status: "failed",
    createdAt: hoursAgo(2),
    durationMs: 20_000,
    steps: { calendars: "succeeded", services: "succeeded", contact_details: "succeeded", appointments: "succeeded", openings: "failed" },
  });
  ids.session = failed.id;
});

test.afterAll(async () => {
  await database.db.delete(locations).where(inArray(locations.id, createdLocationIds));
  await database.close();
});

async function pageAs(browser: Browser, role: Role, size: Size): Promise<Page> {
  const context = await browser.newContext({
    storageState: storageStateOf(role),
    baseURL: baseUrl(),
    viewport: { width: size.width, height: size.height },
  });
  return context.newPage();
}

/** The innermost elements that reach past the viewport's right edge, for the failure message. */
function overflowingElements(page: Page): Promise<string> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible") return true;
      }
      return false;
    };
    const past = [...document.querySelectorAll("body *")].filter((element) => element.getBoundingClientRect().right > width + 1 && !clipped(element));
    const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
    return innermost
      .slice(0, 8)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")} "${element.textContent?.slice(0, 40)}"`)
      .join("; ");
  });
}

/** Waits for the page's live data to settle, then checks the width, axe and takes the screenshot. */
async function expectFinished(page: Page, size: Size, screenshot: string) {
  await test.step(`at ${size.width}×${size.height}`, async () => {
    await page.waitForLoadState("networkidle");
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect
      .soft(scrollWidth, `${page.url()} scrolls sideways at ${size.width} px: ${await overflowingElements(page)}`)
      .toBeLessThanOrEqual(size.width);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/${screenshot}-${size.name}.png`, fullPage: true });
  });
}

/**
 * Narrows the loaded page to `size` and waits two frames, so that its media queries and resize observers (the charts,
 * the scrolling tables) have laid it out again. Narrowing is the strict direction: whatever kept its desktop width
 * would now reach past the edge.
 */
async function resizeTo(page: Page, size: Size) {
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

const mainPages: { name: string; role: Role; path: () => string; heading: RegExp }[] = [
  { name: "locations", role: "admin", path: () => "/locations", heading: /^Locations$/ },
  { name: "locations-owner", role: "owner", path: () => "/locations", heading: /^Locations$/ },
  { name: "location", role: "support", path: () => `/locations/${ids.demo}`, heading: /Demo Salon North/ },
  { name: "location-owner", role: "owner", path: () => `/locations/${ids.demo}`, heading: /Demo Salon North/ },
  { name: "location-sessions", role: "support", path: () => `/locations/${ids.synced}/sessions`, heading: /Session history/ },
  { name: "location-preview", role: "support", path: () => `/locations/${ids.demo}/preview`, heading: /Preview/ },
  { name: "location-edit", role: "admin", path: () => `/locations/${ids.demo}/edit`, heading: /^Edit Demo Salon North$/ },
  { name: "location-new", role: "admin", path: () => "/locations/new", heading: /./ },
  { name: "location-connect", role: "owner", path: () => `/locations/${ids.demo}/connect`, heading: /onnect Demo Salon North$/ },
  { name: "session", role: "engineer", path: () => `/sessions/${ids.session}`, heading: /./ },
  { name: "sessions", role: "support", path: () => "/sessions", heading: /^Sessions$/ },
  { name: "fleet", role: "support", path: () => "/fleet", heading: /^Fleet$/ },
  { name: "settings", role: "admin", path: () => "/settings", heading: /^Settings$/ },
  { name: "users", role: "admin", path: () => "/settings/users", heading: /^Users$/ },
  { name: "environments", role: "admin", path: () => "/settings/environments", heading: /Environments/ },
  { name: "alerts", role: "admin", path: () => "/settings/alerts", heading: /Alerts/ },
  { name: "audit", role: "admin", path: () => "/settings/audit", heading: /^Audit log$/ },
  { name: "sandbox", role: "engineer", path: () => "/settings/sandbox", heading: /^Sandbox inspector$/ },
];

// One load per page, checked at the desktop size, then narrowed to the phone's and checked again: the server renders
// the same page for both (the layout is CSS and resize observers), and a load is most of a check's time.
for (const main of mainPages) {
  test(`${main.name} as ${main.role} at 1440×900 and 390×844: no sideways scrolling, axe-clean, screenshot`, async ({ browser }) => {
    const page = await pageAs(browser, main.role, desktop);
    const response = await page.goto(main.path());
    expect(response?.status()).toBe(200);
    const heading = page.getByRole("heading", { level: 1, name: main.heading });
    await expect(heading).toBeVisible();
    await expectFinished(page, desktop, main.name);
    await resizeTo(page, phone);
    await expect(heading).toBeVisible();
    await expectFinished(page, phone, main.name);
    await page.context().close();
  });
}

test("at 390×844 wide tables scroll inside their own focusable box, not the page, and say so until their far end", async ({ browser }) => {
  const page = await pageAs(browser, "support", phone);
  await page.goto("/fleet");
  const matrix = page.getByRole("table", { name: /Locations by sync step/ });
  await expect(matrix).toBeVisible();
  const box = page.locator("[data-scrollable]").filter({ has: matrix });
  await expect(box).toHaveAttribute("tabindex", "0");
  // Under the box a line says there is more to the right, until its far end is reached.
  const hint = box.locator("xpath=following-sibling::*[1]");
  await expect(hint).toHaveText("Scroll sideways for more columns");
  await box.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.keyboard.press("End");
  await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(page.getByTestId("scroll-hint").and(hint)).toHaveCount(0);
  await page.context().close();
});

test("at 390×844 the header is one line and the navigation opens in a sheet from the menu button, focus inside", async ({ browser }) => {
  const page = await pageAs(browser, "admin", phone);
  await page.goto("/locations");
  const header = page.locator("header").first();
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

  const menuButton = page.getByRole("button", { name: "Open menu" });
  await menuButton.click();
  const sheet = page.getByRole("dialog", { name: "Location Sync" });
  await expect(sheet).toBeVisible();
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog]")))).toBe(true);
  await expect(sheet.getByRole("link", { name: "Locations", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(sheet.getByTestId("signed-in-email")).toHaveText("admin@demo.test");
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: "e2e/.artifacts/screenshots/navigation-sheet-phone.png" });

  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await sheet.getByRole("link", { name: "Sessions", exact: true }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(sheet).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
  await page.context().close();
});

test("at 1440×900 the navigation is a sidebar and there is no menu button", async ({ browser }) => {
  const page = await pageAs(browser, "admin", desktop);
  await page.goto("/locations");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Fleet" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  // A location that is not connected has no next sync: the schedule skips it until it is.
  await page.getByLabel("Search").fill(`Responsive Never Synced ${suffix}`);
  const row = page.getByRole("row", { name: new RegExp(`Responsive Never Synced ${suffix}`) });
  await expect(row).toContainText("Not connected");
  await expect(row).toContainText("Once connected");
  await page.context().close();
});

test.describe("empty states", () => {
  for (const size of sizes) {
    test(`an owner with no location yet sees what that means at ${size.width}×${size.height}, and no action they may not take`, async ({
      browser,
    }) => {
      const email = `responsive-owner-${suffix}-${size.name}@example.test`;
      const password = `responsive-owner-password-${suffix}`;
      await createUserWithPassword({ email, role: "owner", password });
      const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      await signInThroughForm(page, email, password);
      await expect(page).toHaveURL(/\/locations$/);
      const empty = page.getByTestId("empty-state");
      await expect(empty).toContainText("No location is shared with you yet");
      await expect(empty.locator("svg")).toBeVisible();
      await expect(page.getByRole("link", { name: "Add a location" })).toHaveCount(0);
      await expectFinished(page, size, "empty-locations-owner");

      await context.close();
    });
  }

  test("a location that never synced: support is sent to Sync now, an engineer (who may not sync) gets no action", async ({ browser }) => {
    const support = await pageAs(browser, "support", phone);
    await support.goto(`/locations/${ids.neverSynced}/sessions`);
    const empty = support.getByTestId("empty-state");
    await expect(empty).toContainText(`Responsive Never Synced ${suffix} has not synced yet`);
    await empty.getByRole("link", { name: "Go to the location to sync it" }).click();
    await expect(support).toHaveURL(new RegExp(`/locations/${ids.neverSynced}$`));
    const latest = support.getByRole("region", { name: "Latest session" }).getByTestId("empty-state");
    await expect(latest).toContainText("No sync session has run for this location yet");
    await expect(latest).toContainText("or at once with Sync now");
    await support.goto(`/locations/${ids.neverSynced}/sessions`);
    await expectFinished(support, phone, "empty-location-sessions");
    await support.context().close();

    const engineer = await pageAs(browser, "engineer", phone);
    await engineer.goto(`/locations/${ids.neverSynced}/sessions`);
    await expect(engineer.getByTestId("empty-state")).toContainText("has not synced yet");
    await expect(engineer.getByTestId("empty-state").getByRole("link")).toHaveCount(0);
    await engineer.goto(`/locations/${ids.neverSynced}`);
    const readOnly = engineer.getByRole("region", { name: "Latest session" }).getByTestId("empty-state");
    await expect(readOnly).toContainText("No sync session has run for this location yet");
    await expect(readOnly).not.toContainText("Sync now");
    await engineer.context().close();
  });

  const noMatch = `no-such-thing-${suffix}`;
  const filteredPages: { name: string; role: Role; path: string; message: string; clearsTo: RegExp }[] = [
    { name: "locations", role: "admin", path: `/locations?q=${noMatch}`, message: "No locations match", clearsTo: /\/locations$/ },
    { name: "sessions", role: "support", path: `/sessions?q=${noMatch}`, message: "No sessions match these filters", clearsTo: /\/sessions$/ },
    { name: "fleet", role: "support", path: `/fleet?q=${noMatch}`, message: "No locations match", clearsTo: /\/fleet$/ },
    {
      name: "audit",
      role: "admin",
      path: `/settings/audit?actor=${noMatch}`,
      message: "No entries match these filters",
      clearsTo: /\/settings\/audit$/,
    },
  ];
  for (const filtered of filteredPages) {
    test(`${filtered.name} with filters that match nothing says so and offers to clear them`, async ({ browser }) => {
      const page = await pageAs(browser, filtered.role, phone);
      await page.goto(filtered.path);
      const empty = page.getByTestId("empty-state");
      await expect(empty).toContainText(filtered.message);
      await expectFinished(page, phone, `empty-${filtered.name}-filtered`);
      await empty.getByRole("link", { name: "Clear filters" }).click();
      await expect(page).toHaveURL(filtered.clearsTo);
      await expect(page.getByTestId("empty-state")).toHaveCount(0);
      await page.context().close();
    });
  }
});
