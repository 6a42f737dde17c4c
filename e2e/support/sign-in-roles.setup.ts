import { roles, demoUser, storageStateOf } from "./roles";
import { expect, signInThroughForm, test } from "./test";

for (const role of roles) {
  test(`sign in as the demo ${role}`, async ({ page }) => {
    const user = demoUser(role);
    await signInThroughForm(page, user.email, user.password);
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByTestId("signed-in-email")).toHaveText(user.email);
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
