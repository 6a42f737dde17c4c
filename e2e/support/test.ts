import { test as base, expect, type Page } from "@playwright/test";

export const baseUrl = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: run through playwright (global setup starts the app)");
  return url;
};

export const test = base.extend({
  baseURL: async ({}, use) => use(baseUrl()),
});

export { expect };

export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
