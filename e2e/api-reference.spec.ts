import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

test.use({ storageState: storageStateOf("engineer") });

test("an engineer reads what is kept how long, then the API reference and its OpenAPI document", async ({ page }) => {
  await page.goto("/settings");
  const retention = page.getByRole("region", { name: "Data retention" });
  await expect(retention.getByText("30 days")).toBeVisible();
  await expect(retention.getByText(/request and response of each HTTP attempt/)).toBeVisible();
  await expect(retention.getByText("400 days").first()).toBeVisible();

  await page.getByRole("link", { name: /API reference/ }).click();
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  const startSync = page.locator("#postApiLocationsLocationIdSessions");
  await expect(startSync.getByText("/api/locations/{locationId}/sessions")).toBeVisible();
  await expect(startSync.getByText("Permission:")).toContainText("sync.start");
  // With it, the refusals the route handler makes before the operation runs.
  await expect(startSync.getByText(/^403:/)).toContainText(
    "the signed-in role lacks the permission sync.start, or the write came from another origin",
  );
  await expect(startSync.getByText(/^422:/)).toContainText("Invalid input");
  await startSync.getByRole("link", { name: "StartSessionInput" }).click();
  await expect(page.getByRole("table", { name: "Fields of StartSessionInput" }).getByText("optionalSteps")).toBeVisible();

  const document = await page.request.get("/api/openapi.json");
  expect(document.status()).toBe(200);
  const body = (await document.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(body.openapi).toBe("3.1.0");
  expect(Object.keys(body.paths)).toContain("/api/sessions/{sessionId}/attempts/{attemptId}");
});
