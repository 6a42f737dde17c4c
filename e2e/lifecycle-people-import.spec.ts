import { writeFileSync } from "node:fs";
import { systemActorAs } from "../lib/auth/permissions";
import { createUser } from "../lib/users/create-user";
import { randomSuffix } from "./support/canary-values";
import { connectToAppDatabase } from "./support/database";
import { storageStateOf } from "./support/roles";
import { expect, signInThroughForm, test } from "./support/test";

const header = "name,time_zone,country,environment,upstream_location_id,source_key,sync_time,owner_email";

test("support imports locations from CSV (problems first), moves one to production and archives it; an admin deletes it for good", async ({
  browser,
}) => {
  const suffix = randomSuffix();
  const name = `Imported Salon ${suffix}`;
  const support = await (await browser.newContext({ storageState: storageStateOf("support") })).newPage();

  await support.goto("/locations");
  await support.getByRole("link", { name: "Import CSV" }).click();
  const badFile = test.info().outputPath("bad.csv");
  writeFileSync(badFile, [header, `${name},Mars/Olympus,DE,staging,imp-${suffix},demo-salon-north,10:00,`].join("\n"));
  await support.getByLabel("CSV file", { exact: true }).setInputFiles(badFile);
  await support.getByRole("button", { name: "Check file" }).click();
  const problems = support.getByRole("table", { name: "Problems of the file" });
  await expect(problems.getByRole("row").nth(1)).toContainText("2time_zoneMust be an IANA time zone");
  await expect(support.getByRole("button", { name: "Import", exact: true })).toBeDisabled();

  const goodFile = test.info().outputPath("good.csv");
  writeFileSync(goodFile, [header, `${name},Europe/Berlin,DE,staging,imp-${suffix},demo-salon-north,10:00,owner-${suffix}@example.test`].join("\n"));
  await support.getByLabel("CSV file", { exact: true }).setInputFiles(goodFile);
  await support.getByRole("button", { name: "Check file" }).click();
  await expect(support.getByText("Every row passes: 1 location ready to import")).toBeVisible();
  await support.getByRole("button", { name: "Import 1 location" }).click();
  await expect(support.getByTestId("invite-link")).toContainText("/invite/");

  await support.goto(`/locations?q=${encodeURIComponent(name)}`);
  await support.getByRole("link", { name }).click();
  await support.getByRole("button", { name: "Move to production" }).click();
  const move = support.getByRole("alertdialog");
  await move.getByLabel("Upstream location ID in production").fill(`imp-prod-${suffix}`);
  await move.getByRole("button", { name: "Move and reconnect" }).click();
  await expect(support.getByText("production · upstream location imp-prod-")).toBeVisible();

  await support.getByRole("button", { name: "Archive" }).click();
  await support.getByRole("alertdialog").getByRole("button", { name: "Archive" }).click();
  await expect(support.getByRole("heading", { name: `${name} (archived)` })).toBeVisible();
  await expect(support.getByRole("link", { name: "Edit location" })).toHaveCount(0);
  await expect(support.getByRole("button", { name: "Delete for good" })).toHaveCount(0);
  await support.goto(`/locations?q=${encodeURIComponent(name)}`);
  await expect(support.getByRole("link", { name })).toHaveCount(0);
  await support.goto(`/locations?q=${encodeURIComponent(name)}&status=archived`);
  await support.getByRole("link", { name }).click();
  await expect(support).toHaveURL(/\/locations\/[0-9a-f-]{36}$/);
  await expect(support.getByTestId("next-run")).toHaveText("None: the location is archived");
  await expect(support.getByRole("region", { name: "Preview and sync" })).toContainText("Next sync: None: the location is archived");
  const locationUrl = support.url();

  const admin = await (await browser.newContext({ storageState: storageStateOf("admin") })).newPage();
  await admin.goto(locationUrl);
  await admin.getByRole("button", { name: "Delete for good" }).click();
  const remove = admin.getByRole("alertdialog");
  const confirm = remove.getByRole("button", { name: "Delete for good" });
  await remove.getByLabel("Type the location's name to confirm").fill("Imported Salon");
  await expect(confirm).toBeDisabled();
  await remove.getByLabel("Type the location's name to confirm").fill(name);
  await confirm.click();
  await expect(admin).toHaveURL(/\/locations\?status=archived$/);
  await admin.goto(locationUrl);
  await expect(admin.getByRole("heading", { name: "Not found" })).toBeVisible();
  await admin.goto("/settings/audit");
  await expect(admin.getByRole("row").filter({ hasText: "Location deleted for good" }).filter({ hasText: name })).toHaveCount(1);
});

test("an owner changes their own password; an admin's reset link sets a new one once", async ({ browser }) => {
  const email = `people-${randomSuffix()}@example.test`;
  const connection = connectToAppDatabase();
  await createUser({ db: connection.db, actor: systemActorAs("e2e") }, { email, name: "", role: "owner", password: "the first long password" });
  await connection.close();

  const owner = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signInThroughForm(owner, email, "the first long password");
  await expect(owner.getByTestId("signed-in-email")).toHaveText(email);
  await owner.goto("/settings");
  await owner.getByRole("link", { name: /Your account/ }).click();
  await owner.getByLabel("Current password").fill("not the password");
  await owner.getByLabel("New password").fill("the second long password");
  await owner.getByLabel("Repeat the password").fill("the second long password");
  await owner.getByRole("button", { name: "Change password" }).click();
  await expect(owner.locator("#currentPassword-error")).toHaveText("is not your current password");
  await owner.getByLabel("Current password").fill("the first long password");
  await owner.getByRole("button", { name: "Change password" }).click();
  await expect(owner.getByText("Password changed. Your other sessions were signed out.")).toBeVisible();
  // This browser was signed in again with the new password.
  await owner.reload();
  await expect(owner.getByTestId("signed-in-email")).toHaveText(email);

  const admin = await (await browser.newContext({ storageState: storageStateOf("admin") })).newPage();
  await admin.goto("/settings/users");
  await admin.getByRole("button", { name: `Send password reset to ${email}` }).click();
  await expect(admin.getByText(`Password reset link for ${email}`)).toBeVisible();
  const link = await admin.getByTestId("invite-link").textContent();
  expect(link).toMatch(/\/reset-password\/[A-Za-z0-9_-]{43}$/);

  const stranger = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await stranger.goto(link!);
  await expect(stranger.getByText(email)).toBeVisible();
  await stranger.getByLabel("New password").fill("the third long password");
  await stranger.getByLabel("Repeat the password").fill("the third long password");
  await stranger.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(stranger.getByTestId("signed-in-email")).toHaveText(email);
  await stranger.goto(link!);
  await expect(stranger.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  // The owner's earlier session ended with the reset.
  await owner.goto("/locations");
  await expect(owner).toHaveURL(/\/sign-in/);
});
