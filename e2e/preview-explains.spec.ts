import { and, eq } from "drizzle-orm";
import { locations, syncedRecords } from "../db/schema";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

// The preview that explains, as support uses it: issues by root cause filter the table, a record opens beside its
// source row, removed records list, openings show as a calendar per service; at a desktop and a phone size.
test.use({ storageState: storageStateOf("support") });

const database = connectToAppDatabase();
const removedKey = "e2e-removed-service";
let locationId = "";

test.beforeAll(async () => {
  const [north] = await database.db.select({ id: locations.id }).from(locations).where(eq(locations.name, "Demo Salon North"));
  locationId = north!.id;
  // A service the upstream holds that the source does not have: the next sync removes it.
  await database.db
    .insert(syncedRecords)
    .values({ locationId, recordType: "services", recordKey: removedKey, contentHash: "e2e" })
    .onConflictDoNothing();
});

test.afterAll(async () => {
  await database.db
    .delete(syncedRecords)
    .where(and(eq(syncedRecords.locationId, locationId), eq(syncedRecords.recordType, "services"), eq(syncedRecords.recordKey, removedKey)));
  await database.close();
});

for (const size of [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const) {
  test(`at ${size.width}×${size.height}: a root cause filters the table, a record beside its source row, removed records, the openings calendar`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await page.goto(`/locations/${locationId}/preview?type=services`);
    // Computed in the background on a first visit; the page shows the records when the run ends.
    const table = page.getByRole("table", { name: "Mapped records" });
    await expect(table).toBeVisible({ timeout: 60_000 });

    // The demo's deleted category: its service is sent without it. Choosing the cause filters at once, in the URL.
    const cause = page
      .getByRole("list", { name: "Issues by root cause" })
      .getByRole("listitem")
      .filter({ hasText: /Service category \S+ is missing from the source/ });
    await expect(cause).toContainText("1 service sent without it");
    await cause.getByRole("button").click();
    await expect(page).toHaveURL(/cause=missing%3Aservice_categories/);
    await expect(page.getByTestId("cause-filter")).toContainText("is missing from the source");
    await expect(page.getByRole("navigation", { name: "Record pages" })).toContainText("1 record ·");
    await expect(table.getByRole("row")).toHaveCount(2);

    // The row's side panel: the source row beside the mapped record, and the issue that names the category.
    await table.getByRole("row").nth(1).getByRole("button").click();
    const panel = page.getByRole("dialog");
    await expect(panel.getByTestId("source-json")).toContainText('"category_id"');
    await expect(panel.getByTestId("record-json")).not.toContainText("service_category_external_id");
    await expect(panel).toContainText("service_category_external_id: names service category");
    if (size.name === "desktop") {
      const source = (await panel.getByTestId("source-json").boundingBox())!;
      const mapped = (await panel.getByTestId("record-json").boundingBox())!;
      expect(Math.abs(source.y - mapped.y)).toBeLessThan(5);
      expect(mapped.x).toBeGreaterThan(source.x + source.width - 1);
    }
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/preview-record-panel-${size.name}.png` });
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();

    // Removed: what the upstream holds that the source no longer has.
    await page.getByLabel("Status").selectOption("removed");
    await expect(page).toHaveURL(/status=removed/);
    await expect(page.getByRole("table", { name: "Removed records" }).getByTestId(`removed-row-${removedKey}`)).toContainText(
      "No longer in the source",
    );

    // Openings as a calendar per service: days × times, scrolling in its own box on a phone, never the page.
    await page
      .getByRole("navigation", { name: "Record types" })
      .getByRole("link", { name: /^Openings/ })
      .click();
    const calendar = page.getByRole("region", { name: /Openings calendar/ });
    await expect(calendar.getByRole("table").first()).toBeVisible();
    await expect(calendar.getByRole("table").first().getByRole("columnheader", { name: "Time" })).toBeVisible();
    await expect(calendar.getByRole("table").first().getByRole("rowheader").first()).toHaveText(/^\d{2}:\d{2}$/);
    // Openings and appointments read as names and local times, not wire timestamps.
    await expect(page.getByRole("table", { name: "Mapped records" }).getByRole("row").nth(1)).toContainText(/with /);
    await expect(page.getByRole("table", { name: "Mapped records" })).not.toContainText("Z+");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/preview-openings-${size.name}.png`, fullPage: true });
  });
}
