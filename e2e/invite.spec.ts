import { randomSuffix } from "./support/canary-values";
import { storageStateOf } from "./support/roles";
import { expect, test } from "./support/test";

test.use({ storageState: storageStateOf("admin") });

test("an admin invites a user; the link sets their password once and signs them in", async ({ page, browser }) => {
  const email = `invited-${randomSuffix()}@example.test`;
  await page.goto("/settings/users");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("engineer");
  await page.getByRole("button", { name: "Create and get link" }).click();
  const link = await page.getByTestId("invite-link").textContent();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId(`user-row-${email}`)).toContainText("Invited");

  const invitee = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const inviteePage = await invitee.newPage();
  await inviteePage.goto(link!);
  await expect(inviteePage.getByText(email)).toBeVisible();
  await inviteePage.getByLabel("New password").fill("short");
  await inviteePage.getByLabel("Repeat the password").fill("short");
  await inviteePage.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(inviteePage.locator("#password-error")).toHaveText("must be at least 12 characters");

  await inviteePage.getByLabel("New password").fill("a good long password");
  await inviteePage.getByLabel("Repeat the password").fill("a good long password");
  await inviteePage.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(inviteePage).toHaveURL(/\/locations$/);
  await expect(inviteePage.getByTestId("signed-in-email")).toHaveText(email);
  await expect(inviteePage.getByTestId("signed-in-role")).toHaveText("Engineer");

  await inviteePage.goto(link!);
  await expect(inviteePage.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await invitee.close();

  await page.reload();
  await expect(page.getByTestId(`user-row-${email}`)).toContainText("Active");
});
