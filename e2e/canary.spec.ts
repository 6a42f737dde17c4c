import { readFile } from "node:fs/promises";
import type { Role } from "../lib/auth/roles";
import { apiAs, createUserWithPassword } from "./support/api";
import { canary, randomSuffix } from "./support/canary-values";
import { LOG_FILE } from "./support/global-setup";
import { roles } from "./support/roles";
import { concretePath, discoverRoutes } from "./support/routes";
import { expect, signInThroughForm, test } from "./support/test";

const secrets = Object.entries(canary);

function leaks(text: string): string[] {
  return secrets.filter(([, value]) => text.includes(value)).map(([name]) => name);
}

test("no secret reaches any page, API response or log line, for any role", async ({ browser }) => {
  const admin = await apiAs("admin");
  const saved = await admin.put("/api/environments/production", {
    data: {
      baseUrl: "https://canary.example.com",
      uploadHosts: ["uploads.canary.example.com"],
      clientId: "canary-client-id",
      dataSourceName: "CanarySource",
      apiKey: canary.apiKey,
      clientSecret: canary.clientSecret,
    },
  });
  expect(saved.status()).toBe(200);
  expect(leaks(await saved.text())).toEqual([]);

  // A password travels through the invite, a failed and a good sign-in.
  const user = await createUserWithPassword({ email: `canary-${randomSuffix()}@example.test`, role: "support", password: canary.password });
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signInThroughForm(page, user.email, `${canary.password}-wrong`);
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await signInThroughForm(page, user.email, canary.password);
  await expect(page).toHaveURL(/\/locations$/);
  await context.close();

  const found: string[] = [];
  const routes = discoverRoutes().filter((route) => route.methods.includes("GET") && !route.pattern.startsWith("/sandbox"));
  for (const caller of [null, ...roles] as (Role | null)[]) {
    const api = await apiAs(caller);
    for (const route of routes) {
      const url = concretePath(route.pattern);
      const response = await api.get(url, { failOnStatusCode: false });
      const body = await response.text();
      const headerText = JSON.stringify(response.headers());
      for (const name of leaks(body + headerText)) found.push(`${name} in ${caller ?? "signed-out"} GET ${url}`);
    }
    // The pages that render credentials and the audit log, with filters applied.
    for (const url of [
      "/settings/environments",
      "/settings/audit?action=environment.updated",
      "/api/environments/production",
      "/api/audit-log?limit=200",
    ]) {
      const body = await (await api.get(url, { failOnStatusCode: false })).text();
      for (const name of leaks(body)) found.push(`${name} in ${caller ?? "signed-out"} GET ${url}`);
    }
    await api.dispose();
  }
  await admin.dispose();

  const log = await readFile(LOG_FILE, "utf8");
  for (const name of leaks(log)) found.push(`${name} in the server log`);
  expect(log.length).toBeGreaterThan(0);
  expect(found).toEqual([]);
});
