import { eq } from "drizzle-orm";
import { locations } from "../db/schema";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

test.use({ storageState: storageStateOf("support") });

const database = connectToAppDatabase();
test.afterAll(() => database.close());

test("support previews a demo location: counts, an invalid phone with its reason, a canceled appointment excluded by rule, a record's JSON", async ({
  page,
}) => {
  const [north] = await database.db.select({ id: locations.id }).from(locations).where(eq(locations.name, "Demo Salon North"));
  await page.goto(`/locations/${north!.id}`);
  await page.getByRole("link", { name: "Open the preview" }).click();
  await expect(page.getByRole("heading", { name: "Preview · Demo Salon North" })).toBeVisible();
  // Computed in the background on first visit; the page reloads itself when the run ends.
  await expect(page.getByRole("navigation", { name: "Record types" })).toBeVisible({ timeout: 60_000 });
  const sourceRows = Number((await page.getByTestId("count-sourceRows").textContent())!.replace(/,/g, ""));
  expect(sourceRows).toBeGreaterThan(0);

  await page
    .getByRole("navigation", { name: "Record types" })
    .getByRole("link", { name: /^Contacts/ })
    .click();
  await expect(page).toHaveURL(/type=contact_details/);
  const issues = page.getByRole("region", { name: "Issues by root cause" });
  const phoneGroup = issues.getByRole("listitem").filter({ hasText: /Contacts: mobile_phone_number is not a mobile number/ });
  await expect(phoneGroup.first()).toBeVisible();
  await expect(phoneGroup.first()).toContainText("sent with a warning");
  await page.screenshot({ path: "e2e/.artifacts/screenshots/preview-contacts.png", fullPage: true });

  await page
    .getByRole("navigation", { name: "Record types" })
    .getByRole("link", { name: /^Appointments/ })
    .click();
  await expect(page).toHaveURL(/type=appointments/);
  await page.getByLabel("Status").selectOption("excluded");
  await expect(page.getByRole("table", { name: "Mapped records" }).getByText("Excluded: canceled").first()).toBeVisible();
  expect(Number((await page.getByTestId("count-excludedByRule").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);

  await page.getByLabel("Status").selectOption("valid");
  await expect(page).toHaveURL(/status=valid/);
  await expect(page.getByRole("table", { name: "Mapped records" }).getByText("Excluded: canceled")).toHaveCount(0);
  await page.getByRole("table", { name: "Mapped records" }).getByRole("row").nth(1).getByRole("button").click();
  const json = JSON.parse((await page.getByTestId("record-json").textContent())!);
  expect(json).toMatchObject({
    external_id: expect.any(String),
    start_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z[+-]\d{2}:\d{2}$/),
  });
  await expect(page.getByText("The JSON that would be sent:")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screenshots/preview-record.png", fullPage: true });

  const csv = await page.request.get(`/api/locations/${north!.id}/preview/issues`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toBe("record_type,source_id,external_id,severity,field,code,reason,original_value_masked");
  expect(lines.some((line) => line.includes("invalid_phone"))).toBe(true);
});
