import { randomSuffix } from "./support/canary-values";
import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

test.use({ storageState: storageStateOf("support") });

test("support creates a location (with the window rule explained), edits it, and finds it by search and filter", async ({ page }) => {
  const name = `E2E Barber ${randomSuffix()}`;
  const upstreamId = `e2e-${randomSuffix()}`;
  await page.goto("/locations");
  await page.getByRole("link", { name: "New location" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Time zone").fill("Europe/Vienna");
  await page.getByLabel("Country").selectOption("AT");
  await page.getByLabel("Upstream location ID").fill(upstreamId);
  await page.getByLabel("Source key").fill("demo-salon-north");
  await page.getByLabel("Daily sync time").fill("08:30");
  await page.getByRole("button", { name: "Create location" }).click();
  await expect(page.locator("#location-syncTime-error")).toContainText("Must be between 09:00 and 18:59");
  await expect(page.locator("#location-syncTime-help")).toContainText("The upstream recommends syncing between 9am and 7pm");
  await page.screenshot({ path: "e2e/.artifacts/screenshots/location-form.png", fullPage: true });

  await page.getByLabel("Daily sync time").fill("11:15");
  await page.getByRole("button", { name: "Create location" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Schedule" })).toContainText("11:15 Europe/Vienna");
  await page.screenshot({ path: "e2e/.artifacts/screenshots/location-overview.png", fullPage: true });

  await page.getByRole("link", { name: "Edit location" }).click();
  await expect(page).toHaveURL(/\/edit$/);
  await page.getByLabel("Name").fill(`${name} Renamed`);
  await page.getByLabel("Automotive business").check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: `${name} Renamed` })).toBeVisible();
  await expect(page.getByText("automotive", { exact: false }).first()).toBeVisible();

  await page.goto("/locations");
  // Filters apply as they are chosen (no Apply to press) and stay in the URL.
  await page.getByLabel("Search").fill(upstreamId);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${upstreamId}`));
  await expect(page.getByRole("link", { name: `${name} Renamed` })).toBeVisible();
  await expect(page.locator("#main").getByText("1 location", { exact: true })).toBeVisible();
  await page.getByLabel("Connection").selectOption("connected");
  await expect(page).toHaveURL(/[?&]status=connected/);
  await expect(page.getByRole("link", { name: `${name} Renamed` })).toHaveCount(0);
  await page.goto("/locations");
  await page.screenshot({ path: "e2e/.artifacts/screenshots/locations-list.png", fullPage: true });
});

test("a duplicate upstream location id is refused with the field named", async ({ page }) => {
  await page.goto("/locations/new");
  await page.getByLabel("Name").fill(`Duplicate ${randomSuffix()}`);
  await page.getByLabel("Time zone").fill("Europe/Berlin");
  await page.getByLabel("Upstream location ID").fill("sbx-loc-1001");
  await page.getByLabel("Source key").fill("demo-salon-north");
  await page.getByRole("button", { name: "Create location" }).click();
  await expect(page.locator("#location-upstreamLocationId-error")).toContainText("Demo Salon North");
});
