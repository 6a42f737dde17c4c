import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { DomainError } from "@/lib/errors/domain-error";
import { sandboxErrorShapes, type SandboxErrorShape } from "@/lib/sandbox/response-shapes";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture, type SandboxFixture } from "@/lib/sandbox/testing";
import { connectLocation } from "./connect-location";
import { getLocationRow } from "./get-location";
import { TOKEN_OR_ENVIRONMENT_REFUSED_REASON, testConnection } from "./test-connection";

// Refusals of the environment's credentials, the login or the token, answered the sandbox's way (with a code) or
// without one (a gateway's 403 {"message":"Forbidden"}, an empty body): the spec shows no error bodies (§7).
const testDb = await useTestDatabase();
const db = testDb.db;
const sandboxes = {} as Record<SandboxErrorShape, SandboxServer>;
let fixture: SandboxFixture;
let address = 0;
const actorFor = () => systemActorAs("support@example.test", `198.51.100.${++address}`);

beforeAll(async () => {
  for (const shape of sandboxErrorShapes) sandboxes[shape] = await startSandboxServer({ db, errorShape: shape });
});
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((sandbox) => sandbox.close()));
});
beforeEach(async () => {
  fixture = await createSandboxFixture(db);
});

async function pointStagingAt(shape: SandboxErrorShape, overrides: { apiKey?: string } = {}) {
  const sandbox = sandboxes[shape];
  await pointEnvironmentAtSandbox(
    { db, actor: systemActor },
    { name: "staging", apiBaseUrl: sandbox.apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: { ...fixture, ...overrides } },
  );
}

async function addLocation() {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, environment: "staging", upstreamLocationId: fixture.locationId, timeZone: "Europe/Berlin" })
    .returning();
  return row!;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

async function connectedLocation(shape: SandboxErrorShape) {
  await pointStagingAt(shape);
  const location = await addLocation();
  await connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password });
  return location;
}

describe("connect with a wrong API key for the environment", () => {
  it("documented: says the environment's credentials were refused, pointing to Test credentials", async () => {
    await pointStagingAt("documented", { apiKey: "a-mistyped-api-key" });
    const location = await addLocation();
    const error = await failure(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.code).toBe("NOT_CONFIGURED");
    expect(error.message).toContain("refused the staging environment's API key or client credentials");
    expect(error.message).toContain("Test credentials");
  });

  it.each(["gateway", "empty"] as const)("%s (no code): does not tell the owner their email or password is wrong", async (shape) => {
    await pointStagingAt(shape, { apiKey: "a-mistyped-api-key" });
    const location = await addLocation();
    const error = await failure(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: fixture.owner.password }),
    );
    expect(error.message).not.toContain("email or password is wrong");
    expect(error.message).toContain("did not say why: either the email or password, or the staging environment's API key or client credentials");
    expect(error.message).toContain("an admin runs Test credentials");
    expect(error.fields).toEqual([]);
  });
});

describe("connect with a wrong password", () => {
  it("documented (invalid_credentials): says the email or password is wrong", async () => {
    await pointStagingAt("documented");
    const location = await addLocation();
    const error = await failure(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: "not-the-password" }),
    );
    expect(error.code).toBe("INVALID");
    expect(error.message).toBe("The email or password is wrong for the Marketing Automation Service account. Nothing was stored.");
  });

  it.each(["gateway", "empty"] as const)("%s (no code): says the login was refused without claiming which credential", async (shape) => {
    await pointStagingAt(shape);
    const location = await addLocation();
    const error = await failure(
      connectLocation({ db, actor: actorFor() }, { locationId: location.id, email: fixture.owner.email, password: "not-the-password" }),
    );
    expect(error.code).toBe("UPSTREAM_AUTH");
    expect(error.message).not.toContain("email or password is wrong");
    expect(error.message).toContain("Check the email and password");
  });
});

describe("Test connection after the environment's API key went wrong", () => {
  it("documented (invalid_api_key): points to the environment's credentials and records nothing on the location", async () => {
    const location = await connectedLocation("documented");
    const before = await getLocationRow(db, location.id);
    // An admin saves a wrong API key for the environment (same base URL: the token stays bound).
    await pointStagingAt("documented", { apiKey: "a-mistyped-api-key" });
    const error = await failure(testConnection({ db, actor: actorFor() }, { locationId: location.id }));
    expect(error.code).toBe("NOT_CONFIGURED");
    expect(error.message).toContain("refused the staging environment's API key or client credentials");
    expect(error.message).toContain("Test credentials");
    expect(error.message).not.toContain("reconnects");
    const after = await getLocationRow(db, location.id);
    expect(after).toMatchObject({ attentionReason: null, lastCheckOk: before.lastCheckOk, lastCheckedAt: before.lastCheckedAt });
  });

  it.each(["gateway", "empty"] as const)("%s (no code): records a failed check that does not blame the token", async (shape) => {
    const location = await connectedLocation(shape);
    await pointStagingAt(shape, { apiKey: "a-mistyped-api-key" });
    const check = await testConnection({ db, actor: actorFor() }, { locationId: location.id });
    expect(check).toMatchObject({
      ok: false,
      message: TOKEN_OR_ENVIRONMENT_REFUSED_REASON,
      location: { lastCheckOk: false, attentionReason: TOKEN_OR_ENVIRONMENT_REFUSED_REASON },
    });
  });
});
