import { roleLabels } from "../lib/auth/roles";
import { demoUser, roles, storageStateOf } from "./support/roles";
import { expect, signInThroughForm, test } from "./support/test";

test.describe("signed out", () => {
  test("a page sends you to sign-in and back to it afterwards", async ({ page }) => {
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fsettings$/);
    const admin = demoUser("admin");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  });

  test("a wrong password says so and signs nobody in", async ({ page }) => {
    await signInThroughForm(page, demoUser("support").email, "not the password at all");
    await expect(page.getByText("Wrong email or password.")).toBeVisible();
    await page.goto("/locations");
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

for (const role of roles) {
  test.describe(`as ${role}`, () => {
    test.use({ storageState: storageStateOf(role) });

    test("sees their email and role, the navigation, and can sign out", async ({ page }) => {
      await page.goto("/locations");
      await expect(page.getByTestId("signed-in-role")).toHaveText(roleLabels[role]);
      const nav = page.getByRole("navigation", { name: "Main" });
      // Only what the role has something in: an owner gets their locations and their account, and nobody an empty Settings.
      const navigation = {
        admin: ["Locations", "Sessions", "Fleet", "Settings"],
        engineer: ["Locations", "Sessions", "Fleet", "Settings"],
        support: ["Locations", "Sessions", "Fleet", "Settings"],
        owner: ["Locations", "Settings"],
      }[role];
      await expect(nav.getByRole("link", { name: /^(Locations|Sessions|Fleet|Settings)$/ })).toHaveText(navigation);
      const expected = {
        admin: ["Your account", "Users", "Environments", "Audit log", "Alerts", "Sandbox inspector", "API reference"],
        engineer: ["Your account", "Sandbox inspector", "API reference"],
        support: ["Your account", "API reference"],
        owner: ["Your account"],
      }[role];
      if (expected.length === 0) return;
      await nav.getByRole("link", { name: "Settings" }).click();
      const settingsLinks = page.getByRole("main").getByRole("link");
      for (const name of expected) await expect(settingsLinks.filter({ hasText: name })).toBeVisible();
      await expect(settingsLinks).toHaveCount(expected.length);
    });
  });
}

test("signing out ends the session", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const engineer = demoUser("engineer");
  await signInThroughForm(page, engineer.email, engineer.password);
  await expect(page).toHaveURL(/\/locations$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/sessions");
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});
