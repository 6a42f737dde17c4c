import type { Browser, Page } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { locations, users } from "../db/schema";
import { createFleetLocation, createFleetSession } from "../lib/fleet/testing/fleet-factories";
import { createUserWithPassword } from "./support/api";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";
import { closeToast } from "./support/toast";

// Issue 17 items 6 and 8: one way to show times and statuses, and the actions in their place, at both screen sizes.
const database = connectToAppDatabase();
const suffix = randomSuffix();
const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const locationIds: string[] = [];
const userIds: string[] = [];

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  if (locationIds.length) await database.db.delete(locations).where(inArray(locations.id, locationIds));
  if (userIds.length) await database.db.delete(users).where(inArray(users.id, userIds));
  await database.close();
});

async function pageAs(
  browser: Browser,
  role: "owner" | "support" | "engineer" | "admin",
  viewport: (typeof viewports)[keyof typeof viewports],
): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(role), baseURL: baseUrl(), viewport });
  return context.newPage();
}

async function failedLocation(name: string) {
  const location = await createFleetLocation(database.db, { name, timeZone: "Europe/Berlin", syncTime: "10:00" });
  locationIds.push(location.id);
  const session = await createFleetSession(database.db, {
    locationId: location.id,
    status: "failed",
    createdAt: new Date(Date.now() - 2 * 3_600_000),
    steps: { contact_details: "succeeded", openings: "failed" },
  });
  return { location, session };
}

/** The UTC switch where the viewer finds it: in the sidebar, or on a phone in the navigation sheet the menu button opens. */
async function utcSwitch(page: Page, size: string) {
  if (size !== "phone") return page.getByLabel("Times in UTC");
  await page.getByRole("button", { name: /^Open menu/ }).click();
  return page.getByRole("dialog").getByLabel("Times in UTC");
}

for (const [size, viewport] of Object.entries(viewports)) {
  test.describe(`at ${size} size`, () => {
    test("support: the status badge reads the same on the location page, the sessions lists and the fleet", async ({ browser }) => {
      const name = `Words Badge ${size} ${suffix}`;
      const { location, session } = await failedLocation(name);
      const page = await pageAs(browser, "support", viewport);

      await page.goto(`/locations/${location.id}`);
      const latest = page.getByTestId("latest-session");
      await expect(latest.locator("[data-status='failed']").first()).toHaveText("Failed");
      // Step keys read as people say them, with the status in the same words.
      await expect(latest.getByRole("list", { name: "Steps" })).toContainText("Contacts");
      await expect(latest.getByRole("list", { name: "Steps" })).toContainText("Contacts: Succeeded");
      await expectNoSeriousAxeViolations(page);

      await page.goto(`/locations/${location.id}/sessions`);
      await expect(page.locator("main").locator("[data-status='failed']").first()).toHaveText("Failed");

      await page.goto(`/sessions?q=${encodeURIComponent(name)}`);
      await expect(page.getByTestId(`fleet-session-${session.id}`).locator("[data-status='failed']")).toHaveText("Failed");
      await expectNoSeriousAxeViolations(page);

      await page.goto(`/fleet?q=${encodeURIComponent(name)}`);
      await expect(page.getByTestId(`matrix-row-${location.id}`).getByTestId("matrix-latest-session").locator("[data-status='failed']")).toHaveText(
        "Failed",
      );
      await page.context().close();
    });

    test("support: Sync now is the location header's primary action, and a paused location shows who paused it and no next run", async ({
      browser,
    }) => {
      const name = `Words Pause ${size} ${suffix}`;
      const { location } = await failedLocation(name);
      const page = await pageAs(browser, "support", viewport);
      await page.goto(`/locations/${location.id}`);

      const syncNow = page.getByRole("button", { name: "Sync now" });
      await expect(syncNow).toHaveCount(1);
      await expect(syncNow).toHaveClass(/bg-slate-900/);
      await expect(page.getByRole("button", { name: "Full resync" })).toHaveClass(/bg-white/);
      await syncNow.click();
      const confirm = page.getByRole("alertdialog", { name: "Sync this location now?" });
      await expect(confirm.getByRole("group", { name: "Optional steps" }).getByRole("checkbox")).toHaveCount(3);
      await expectNoSeriousAxeViolations(page);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(confirm).toBeHidden();

      const schedule = page.getByRole("region", { name: "Schedule" });
      await expect(schedule.getByTestId("next-run")).toContainText(/^\w{3} 10:00/);
      await schedule.getByRole("button", { name: `Pause the schedule of ${name}` }).click();
      const pause = page.getByRole("alertdialog", { name: `Pause the daily sync of ${name}?` });
      await pause.getByLabel("Why").fill("Owner is moving premises");
      await pause.getByRole("button", { name: "Pause schedule" }).click();
      await expect(page.getByText(`The daily sync of ${name} is paused.`)).toBeVisible();

      await expect(schedule.getByTestId("next-run")).toHaveText(/^Paused by support@demo\.test (just now|\d+ \w+ ago): Owner is moving premises$/);
      await expect(page.getByRole("region", { name: "Preview and sync" })).toContainText("Paused by support@demo.test");
      await expect(page.locator("main")).not.toContainText("10:00 (");
      await expectNoSeriousAxeViolations(page);
      await page.screenshot({ path: `e2e/.artifacts/screenshots/location-paused-${size}.png`, fullPage: true });

      await page.goto(`/locations?q=${encodeURIComponent(name)}`);
      await expect(page.getByTestId(`location-row-${location.id}`)).toContainText("Paused by support@demo.test");

      await page.goto(`/locations/${location.id}`);
      await page
        .getByRole("region", { name: "Schedule" })
        .getByRole("button", { name: `Resume schedule of ${name}` })
        .click();
      await expect(page.getByRole("region", { name: "Schedule" }).getByTestId("next-run")).toContainText(/^\w{3} 10:00/);
      const [row] = await database.db.select().from(locations).where(eq(locations.id, location.id));
      expect(row!.schedulePausedAt).toBeNull();
      await page.context().close();
    });

    test("admin: a role change asks first and tells the outcome in a toast; Deactivate uses the same dialog", async ({ browser }) => {
      const person = await createUserWithPassword({
        email: `words-${size}-${suffix}@example.test`,
        role: "support",
        password: "a-long-enough-password-1",
      });
      userIds.push(person.id);
      const page = await pageAs(browser, "admin", viewport);
      await page.goto("/settings/users");
      const row = page.getByTestId(`user-row-${person.email}`);

      const role = row.getByLabel(`Role of ${person.email}`);
      await role.selectOption("engineer");
      const ask = page.getByRole("alertdialog", { name: `Change the role of ${person.email} to Engineer?` });
      await expect(ask).toBeVisible();
      await expectNoSeriousAxeViolations(page);
      await ask.getByRole("button", { name: "Cancel" }).click();
      await expect(role).toHaveValue("support");
      const [unchanged] = await database.db.select().from(users).where(eq(users.id, person.id));
      expect(unchanged!.role).toBe("support");

      await role.selectOption("engineer");
      await ask.getByRole("button", { name: "Change role" }).click();
      const told = `The role of ${person.email} is now Engineer.`;
      await expect(page.getByText(told)).toBeVisible();
      // At phone size the toast lies over the row's buttons.
      await closeToast(page, told);
      await expect(role).toHaveValue("engineer");
      const [changed] = await database.db.select().from(users).where(eq(users.id, person.id));
      expect(changed!.role).toBe("engineer");

      page.on("dialog", () => {
        throw new Error("The browser's own confirm() was used");
      });
      await row.getByRole("button", { name: `Deactivate ${person.email}` }).click();
      const deactivate = page.getByRole("alertdialog", { name: `Deactivate ${person.email}?` });
      await expect(deactivate.getByRole("button", { name: "Cancel" })).toBeFocused();
      await deactivate.getByRole("button", { name: "Deactivate" }).click();
      await expect(page.getByText(`${person.email} was deactivated.`)).toBeVisible();
      await expect(row).toContainText("Deactivated");
      const [deactivated] = await database.db.select().from(users).where(eq(users.id, person.id));
      expect(deactivated!.active).toBe(false);
      await page.context().close();
    });

    test("engineer: times read in the location's zone with the instant on hover, and in UTC at the flip of a switch", async ({ browser }) => {
      const { location } = await failedLocation(`Words Time ${size} ${suffix}`);
      const page = await pageAs(browser, "engineer", viewport);
      await page.goto(`/locations/${location.id}`);
      const started = page.getByTestId("latest-session").locator("time").first();
      await expect(started).toHaveText("2 hours ago");
      await expect(started).toHaveAttribute("title", /\(Europe\/Berlin\)$/);
      const nextRun = page.getByRole("region", { name: "Schedule" }).getByTestId("next-run").locator("time").first();
      await expect(nextRun).toHaveText(/^\w{3} 10:00$/);

      await (await utcSwitch(page, size)).check();
      await page.keyboard.press("Escape");
      await expect(started).toHaveAttribute("title", /\+00:00 \(UTC\)$/);
      await expect(nextRun).toHaveText(/^\w{3} 0[89]:00 UTC$/);
      await page.reload();
      await expect(page.getByRole("region", { name: "Schedule" }).getByTestId("next-run").locator("time").first()).toHaveText(/^\w{3} 0[89]:00 UTC$/);
      await expectNoSeriousAxeViolations(page);
      const again = await utcSwitch(page, size);
      await expect(again).toBeChecked();
      await again.uncheck();
      await page.context().close();
    });

    test("admin: a production address on this machine or on plain http is called out", async ({ browser }) => {
      const page = await pageAs(browser, "admin", viewport);
      await page.goto("/settings/environments");
      const production = page.getByRole("form", { name: "Production environment" });
      const baseUrlField = production.getByLabel("Base URL");
      await baseUrlField.fill("http://127.0.0.1:9/sandbox/api");
      await expect(production.getByTestId("production-destination-warning")).toContainText("an address on this machine");
      await baseUrlField.fill("http://api.example.com");
      await expect(production.getByTestId("production-destination-warning")).toContainText("plain http");
      await expectNoSeriousAxeViolations(page);
      await baseUrlField.fill("https://api.example.com");
      await expect(production.getByTestId("production-destination-warning")).toHaveCount(0);
      await page.context().close();
    });
  });
}
