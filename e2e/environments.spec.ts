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
