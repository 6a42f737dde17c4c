import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { Role } from "../../lib/auth/roles";
import { sandboxDemo } from "../../lib/sandbox/provision";
import { storageStateOf } from "./roles";
import { baseUrl, expect } from "./test";

export function apiAs(role: Role | null): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: baseUrl(), storageState: role ? storageStateOf(role) : undefined });
}

/** Creates a user through the admin API and sets their password through the invite link, as they would. */
export async function createUserWithPassword(input: { email: string; role: Role; password: string }) {
  const admin = await apiAs("admin");
  const created = await admin.post("/api/users", { data: { email: input.email, name: "", role: input.role } });
  if (created.status() !== 201) throw new Error(`create user: ${created.status()} ${await created.text()}`);
  const { user } = await created.json();
  const token = String(user.invite.path).split("/").at(-1);
  const anonymous = await apiAs(null);
  const accepted = await anonymous.post(`/api/invites/${token}`, { data: { password: input.password, passwordConfirmation: input.password } });
  if (!accepted.ok()) throw new Error(`accept invite: ${accepted.status()}`);
  await Promise.all([admin.dispose(), anonymous.dispose()]);
  return { id: user.id as string, email: user.email as string };
}

/** Points an environment at `apiBaseUrl` (the built-in sandbox, or something in front of it) with the sandbox's demo credentials, as an admin. */
export async function pointEnvironmentAt(name: "staging" | "production", apiBaseUrl: string = `${baseUrl()}/sandbox/api`) {
  const admin = await apiAs("admin");
  const response = await admin.put(`/api/environments/${name}`, {
    data: {
      baseUrl: apiBaseUrl,
      uploadHosts: [new URL(baseUrl()).host],
      clientId: sandboxDemo.clientId,
      dataSourceName: sandboxDemo.dataSourceName,
      apiKey: sandboxDemo.apiKey,
      clientSecret: sandboxDemo.clientSecret,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  await admin.dispose();
}
