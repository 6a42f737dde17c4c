import { sandboxDemo } from "../lib/sandbox/provision";
import { expectNoSeriousAxeViolations } from "./support/axe";
import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

test.use({ storageState: storageStateOf("admin") });

test("an admin sets production credentials; secrets are write-only and must be re-entered for a new host", async ({ page }) => {
  const apiKey = "e2e-production-api-key-7c1d";
  const clientSecret = "e2e-production-client-secret-9a2f";
  await page.goto("/settings/environments");
  const form = page.getByRole("form", { name: "Production environment" });
  await form.getByLabel("Base URL").fill("https://api.example.com");
  await form.getByLabel("Upload hosts").fill("uploads.example.com");
  await form.getByLabel("Client ID").fill("client-123");
  await form.getByLabel("Data source name").fill("VendorSync");
  await form.getByLabel("API key").fill(apiKey);
  await form.getByLabel("Client secret").fill(clientSecret);
  await form.getByRole("button", { name: "Save production" }).click();
  await expect(page.getByText("Saved production settings.")).toBeVisible();

  await page.reload();
  const saved = page.getByRole("form", { name: "Production environment" });
  await expect(saved.getByLabel("API key")).toHaveValue("");
  await expect(saved.getByText("set · ends in 7c1d")).toBeVisible();
  const html = await page.content();
  expect(html).not.toContain(apiKey);
  expect(html).not.toContain(clientSecret);

  await saved.getByLabel("Base URL").fill("https://elsewhere.example.net");
  await saved.getByRole("button", { name: "Save production" }).click();
  await expect(page.getByText(/re-enter/i).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("form", { name: "Production environment" }).getByLabel("Base URL")).toHaveValue("https://api.example.com");
});

test("an admin tests the staging credentials with an owner's login: a wrong password is told apart, the right one works, nothing is kept", async ({
  page,
}) => {
  const [owner] = sandboxDemo.owners;
  await page.goto("/settings/environments");
  await page.getByRole("button", { name: "Test credentials" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Test the staging credentials" });
  await dialog.getByLabel("Owner's email at the service").fill(owner.email);
  await dialog.getByLabel("Password").fill("not the owner's password");
  await dialog.getByRole("button", { name: "Test" }).click();
  const result = dialog.getByTestId("credentials-test-result");
  await expect(result).toHaveAttribute("data-outcome", "login");
  await expect(result).toContainText("accepted the API key and the client ID and secret, but not that email and password");
  await expect(dialog.getByLabel("Password")).toHaveValue("");
  await expectNoSeriousAxeViolations(page);

  await dialog.getByLabel("Password").fill(owner.password);
  await dialog.getByRole("button", { name: "Test" }).click();
  await expect(result).toHaveAttribute("data-outcome", "ok");
  await expect(page.getByText("The staging credentials work.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();
  expect(await page.content()).not.toContain(owner.password);

  const audit = JSON.stringify(await (await page.request.get("/api/audit-log?action=environment.credentials_tested")).json());
  expect(audit).toContain('"outcome":"login"');
  expect(audit).toContain('"outcome":"ok"');
  expect(audit).not.toContain(owner.password);
});

test.describe("at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the Test credentials dialog fits a phone and passes axe", async ({ page }) => {
    await page.goto("/settings/environments");
    await page.getByRole("button", { name: "Test credentials" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Test the staging credentials" });
    await expect(dialog.getByLabel("Owner's email at the service")).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: "e2e/.artifacts/screenshots/environments-test-credentials-phone.png" });
  });
});
