import { randomBytes } from "node:crypto";
import type { Database } from "@/db/client";
import { createSandboxEnvironment, createSandboxLocation, createSandboxOwner, type SandboxCredentials } from "./provision";
import type { SandboxResponseShape } from "./response-shapes";

export interface SandboxFixture extends SandboxCredentials {
  owner: { id: string; email: string; password: string };
  stranger: { id: string; email: string; password: string };
  locationId: string;
  otherLocationId: string;
}

/** A fresh environment with an owner of two locations and a user who owns nothing (for tests). */
export async function createSandboxFixture(
  db: Database,
  options: { responseShape?: SandboxResponseShape; dateTimeStyle?: "spec" | "rfc3339" } = {},
): Promise<SandboxFixture> {
  const credentials = await createSandboxEnvironment(db, { responseShape: options.responseShape, dateTimeStyle: options.dateTimeStyle });
  const suffix = randomBytes(4).toString("hex");
  const ownerInput = { email: `owner-${suffix}@sandbox.test`, password: `owner-password-${suffix}` };
  const strangerInput = { email: `stranger-${suffix}@sandbox.test`, password: `stranger-password-${suffix}` };
  const owner = await createSandboxOwner(db, { environmentId: credentials.environmentId, ...ownerInput });
  const stranger = await createSandboxOwner(db, { environmentId: credentials.environmentId, ...strangerInput });
  const locationId = await createSandboxLocation(db, { ownerId: owner.id });
  const otherLocationId = await createSandboxLocation(db, { ownerId: owner.id });
  return {
    ...credentials,
    owner: { id: owner.id, ...ownerInput },
    stranger: { id: stranger.id, ...strangerInput },
    locationId,
    otherLocationId,
  };
}

/** A parsed sandbox answer: `error` is present on 4xx/5xx, other fields on success. */
export interface SandboxJson {
  error: { code: string; message: string; details: { index?: number; field?: string; reason: string }[] };
  [field: string]: unknown;
}

function parseJson(text: string): SandboxJson {
  try {
    return (text ? JSON.parse(text) : undefined) as SandboxJson;
  } catch {
    return undefined as unknown as SandboxJson;
  }
}

/** Thin HTTP helpers over plain fetch, for tests that speak to the sandbox directly. */
export function createSandboxHttp(apiBaseUrl: string, apiKey: string) {
  const call = async (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${apiBaseUrl}/v1${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-api-key": apiKey,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: parseJson(text), text };
  };
  return {
    call,
    async userToken(email: string, password: string, clientId: string, clientSecret: string): Promise<string> {
      const result = await call("POST", "/access_tokens", { body: { email, password, client_id: clientId, client_secret: clientSecret } });
      if (result.status !== 200) throw new Error(`user token: ${result.status} ${result.text}`);
      return result.json.access_token as string;
    },
    async locationToken(userToken: string, locationId: string, clientId: string, clientSecret: string): Promise<string> {
      const result = await call("POST", `/access_tokens/locations/${locationId}`, {
        token: userToken,
        body: { client_id: clientId, client_secret: clientSecret },
      });
      if (result.status !== 200) throw new Error(`location token: ${result.status} ${result.text}`);
      return result.json.access_token as string;
    },
  };
}

export async function putUpload(url: string, body: string | unknown[], headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: parseJson(text), text };
}

/** A small valid catalogue (two calendars, one category, one service) shared by the sandbox and client tests. */
export const sampleCatalog = {
  calendars: [
    { external_id: "cal-1", name: "Alice" },
    { external_id: "cal-2", name: "Bob" },
  ],
  categories: [{ external_id: "cat-1", name: "Hair", list_order: 1 }],
  services: [
    {
      external_id: "svc-1",
      name: "Cut",
      description: "A haircut",
      available: true,
      price_cents: 2500,
      service_category_external_id: "cat-1",
      calendar_external_ids: ["cal-1", "cal-2"],
      list_order: 1,
    },
  ],
};
