import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { syncSteps } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActor } from "@/lib/audit/record-audit-event";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "./request-session";
import { runSession, type RunSessionOptions } from "./run-session";
import { sampleNow, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, noWaits, sandboxRequests, useSyncSandbox } from "./testing/sync-test-setup";

// An upload address we refuse cannot become acceptable by asking again: the step fails at once, with where to fix it.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

// The engine's own attempts stay at their default: a refusal must not use them.
const options: RunSessionOptions = {
  reader: createArraySourceReader(sampleSourceRows()),
  now: sampleNow,
  client: noWaits,
  config: { stepBackoffMs: 0, stepAttempts: 3 },
};

async function pointStaging(baseUrl: string, uploadHosts: string[]) {
  await updateEnvironment(
    { db, actor: systemActor },
    {
      name: "staging",
      settings: {
        baseUrl,
        uploadHosts,
        clientId: setup.fixture.clientId,
        dataSourceName: setup.fixture.dataSourceName,
        apiKey: setup.fixture.apiKey,
        clientSecret: setup.fixture.clientSecret,
      },
    },
  );
}

async function contactStep(sessionId: string) {
  const [step] = await db
    .select()
    .from(syncSteps)
    .where(and(eq(syncSteps.sessionId, sessionId), eq(syncSteps.name, "contact_details")));
  return step!;
}

/** The API through a hop that hands out upload addresses on itself, which answer every PUT with a redirect to the real one. */
async function startRedirectingUpstream(apiBaseUrl: string) {
  const seen: string[] = [];
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    seen.push(`${request.method} ${request.url}`);
    if (request.url!.startsWith("/redirected-upload")) {
      response.writeHead(307, { location: decodeURIComponent(request.url!.split("?to=")[1] ?? "") }).end();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
    ) as Record<string, string>;
    const body = Buffer.concat(chunks);
    const upstream = await fetch(`${apiBaseUrl}${request.url}`, { method: request.method, headers, body: body.length ? body : undefined });
    let text = await upstream.text();
    const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    text = text.replace(/"put_data_url":"([^"]+)"/, (_, url: string) => `"put_data_url":"${own}/redirected-upload?to=${encodeURIComponent(url)}"`);
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${host}`, host, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("refused upload addresses", () => {
  it("an upload address outside the environment's upload hosts fails the step at once: one POST, no PUT, no new address", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await pointStaging(setup.sandbox.apiBaseUrl, ["uploads.example.test"]);
    try {
      const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
      expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options })).toBe("failed");

      const step = await contactStep(requested.sessionId!);
      expect(step).toMatchObject({ status: "failed", attempts: 1 });
      expect(step.error).toMatch(
        /^The upload address host 127\.0\.0\.1:\d+ is not one of this environment's upload hosts \(Settings → Environments\); nothing was sent\.$/,
      );
      const exchanges = await sandboxRequests(db, location.upstreamLocationId);
      expect(exchanges.filter((line) => line.includes("contact_details"))).toEqual(["POST contact_details 200"]);
      expect(exchanges.filter((line) => line.startsWith("PUT upload"))).toEqual([]);
    } finally {
      await pointStaging(setup.sandbox.apiBaseUrl, [new URL(setup.sandbox.uploadOrigin).host]);
    }
  });

  it("an upload host that answers with a redirect fails the step at once: one POST, one PUT, the redirect not followed", async () => {
    const upstream = await startRedirectingUpstream(setup.sandbox.apiBaseUrl);
    afterAll(() => upstream.close());
    await pointStaging(upstream.url, [upstream.host, new URL(setup.sandbox.uploadOrigin).host]);
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    upstream.seen.length = 0;

    const requested = await requestSyncSession(systemContext(db), { locationId: location.id, trigger: "manual", requestedByEmail: null });
    expect(await runSession(systemContext(testDb.db), { sessionId: requested.sessionId!, ...options })).toBe("failed");

    const step = await contactStep(requested.sessionId!);
    expect(step).toMatchObject({ status: "failed", attempts: 1 });
    expect(step.error).toMatch(/^The upload host 127\.0\.0\.1:\d+ answered a redirect \(307\);.*\(Settings → Environments\)\.$/);
    expect(step.error).not.toMatch(/attempt/);
    expect(upstream.seen.filter((line) => line.includes("contact_details") || line.includes("upload"))).toEqual([
      `POST /v1/locations/${location.upstreamLocationId}/contact_details/batch_create_or_update`,
      expect.stringMatching(/^PUT \/redirected-upload\?to=/),
    ]);
    // The real upload address behind the redirect was never reached.
    expect((await sandboxRequests(db, location.upstreamLocationId)).filter((line) => line.startsWith("PUT upload"))).toEqual([]);
  });
});
