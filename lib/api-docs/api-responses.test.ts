// The API document against what the route handlers answer and what next-auth names.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { connectDatabase } from "@/db/client";
import { findFreePort } from "@/db/embedded";
import { useTestDatabase } from "@/db/testing/test-database";
import { HealthStatus, healthResponse } from "@/lib/runtime/health";
import { systemActorAs } from "@/lib/auth/permissions";
import { createLocation } from "@/lib/locations/create-location";
import { LocationInput } from "@/lib/locations/location-inputs";
import { getConfig, type Config } from "@/lib/config/config";
import { buildApiDocument } from "./api-document";
import { apiOperations } from "./api-operations";

vi.mock("@/lib/auth/guard", async (original) => ({
  ...(await original<typeof import("@/lib/auth/guard")>()),
  requireApiUser: async () => ({ id: randomUUID(), email: "admin@example.test", name: "Admin", role: "admin" }),
}));

// next-auth's own cookie names (its package exports do not expose the module: load the file).
const { defaultCookies } = createRequire(import.meta.url)(path.resolve(import.meta.dirname, "../../node_modules/next-auth/core/lib/cookie.js")) as {
  defaultCookies: (secure: boolean) => { sessionToken: { name: string } };
};

const testDb = await useTestDatabase();
const noParams = { params: Promise.resolve({}) };

/** The field names a description like "`{ a, b, c }`" names. */
const fieldsNamedBy = (description: string) =>
  [...description.matchAll(/`\{([^}]*)\}`/g)][0]![1]!
    .split(",")
    .map((name) => name.trim())
    .sort();

describe("the API document against the handlers", () => {
  it("GET /api/locations answers the fields its documented response names", async () => {
    await createLocation(
      { db: testDb.db, actor: systemActorAs("support@example.test", "test") },
      LocationInput.parse({
        name: "Salon",
        timeZone: "Europe/Berlin",
        country: "DE",
        environment: "staging",
        upstreamLocationId: "up-1",
        sourceKey: "src-1",
      }),
    );
    const { GET } = await import("@/app/api/locations/route");
    const response = await GET(new Request("http://app.test/api/locations"), noParams);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    const documented = apiOperations.find((operation) => operation.method === "GET" && operation.path === "/api/locations")!;
    expect(Object.keys(body).sort()).toEqual(fieldsNamedBy(documented.response.description));
  });

  it("names the session cookie next-auth sets: __Secure- on an https deployment", () => {
    const cookieOf = (NEXTAUTH_URL: string) =>
      (buildApiDocument({ ...getConfig(), NEXTAUTH_URL } as Config).components.securitySchemes.sessionCookie as { name: string }).name;
    expect(cookieOf("https://sync.example.com")).toBe(defaultCookies(true).sessionToken.name);
    expect(cookieOf("http://127.0.0.1:3000")).toBe(defaultCookies(false).sessionToken.name);
  });
});

describe("answers that are not problem+json", () => {
  it("GET /api/health documents its 503 with the body it answers", async () => {
    const unreachable = connectDatabase(`postgres://nobody:secret@127.0.0.1:${await findFreePort()}/nothing`, { max: 1 });
    const response = await healthResponse(unreachable.db, () => {});
    await unreachable.sql.end({ timeout: 0 });
    expect(response.status).toBe(503);
    const documented = buildApiDocument().paths["/api/health"]!.get!.responses["503"];
    expect(documented).toBeDefined();
    expect(HealthStatus.parse(await response.json())).toEqual({ status: "unavailable" });
  });
});
