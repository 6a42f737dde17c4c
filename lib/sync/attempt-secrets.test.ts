import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { Agent, type Dispatcher } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { syncAttempts } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { getAttemptExchange } from "./read-attempt-exchange";
import { sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, useSyncSandbox } from "./testing/sync-test-setup";

// Every request and response a sync records must be free of the credentials that crossed the wire.
const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

/** A dispatcher that keeps what really went over the wire: request headers and response bodies. */
function wiretap() {
  const headers: Record<string, string>[] = [];
  const responses: string[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    headers.push(Object.fromEntries(Object.entries((options.headers ?? {}) as Record<string, string>)));
    const tapped = new Proxy(handler, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property !== "onResponseData" && property !== "onData") return value.bind(target);
        return (...args: unknown[]) => {
          const chunk = args.find((arg) => arg instanceof Uint8Array);
          if (chunk) responses.push(Buffer.from(chunk).toString("utf8"));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return dispatch(options, tapped as Dispatcher.DispatchHandler);
  });
  return { dispatcher, headers, responses, close: () => agent.close() };
}

const tap = wiretap();
afterAll(() => tap.close());

describe("recorded attempts", () => {
  it("keep the request and response but no API key, token, password, client secret or upload address", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const session = await runManualTestSync(testDb.db, location.id, sampleSourceRows(), { client: { dispatcher: tap.dispatcher } });

    const secrets = new Set<string>([setup.fixture.apiKey, setup.fixture.clientSecret, setup.fixture.owner.password]);
    for (const sent of tap.headers) {
      if (sent["x-api-key"]) secrets.add(sent["x-api-key"]);
      const bearer = /^Bearer (.+)$/.exec(sent.authorization ?? "")?.[1];
      if (bearer) secrets.add(bearer);
    }
    const uploadAddresses: string[] = [];
    for (const body of tap.responses) {
      for (const [, token] of body.matchAll(/"access_token"\s*:\s*"([^"]+)"/g)) secrets.add(token!);
      for (const [, address] of body.matchAll(/"put_data_url"\s*:\s*"([^"]+)"/g)) {
        uploadAddresses.push(address!);
        secrets.add(address!);
        const url = new URL(address!);
        for (const segment of url.pathname.split("/")) if (segment.length >= 16) secrets.add(segment);
        if (url.search.length > 1) secrets.add(url.search.slice(1));
      }
    }
    expect(uploadAddresses.length).toBeGreaterThan(0);

    const rows = await db.select().from(syncAttempts).where(eq(syncAttempts.sessionId, session.id));
    expect(rows.length).toBeGreaterThan(0);
    // The exchanges were recorded, with the secret headers blanked and the upload address reduced to its host.
    expect(rows.every((row) => row.requestHeaders !== null)).toBe(true);
    const uploadRequest = rows.find((row) => row.responseBody?.includes("put_data_url"));
    expect(uploadRequest?.requestHeaders).toMatchObject({ "x-api-key": "[REDACTED]", authorization: "[REDACTED]" });
    expect(uploadRequest?.responseBody).toContain(`"put_data_url":"${new URL(uploadAddresses[0]!).host}/[REDACTED]"`);
    expect(rows.some((row) => row.requestBody !== null && row.requestBodyBytes! > 0)).toBe(true);

    const recorded = JSON.stringify(rows);
    const leaked = [...secrets].filter((secret) => secret.length >= 4 && recorded.includes(secret));
    expect(leaked).toEqual([]);

    // The session page reads one attempt's exchange at a time: staff only, and only of a session they may see.
    const support = { id: randomUUID(), role: "support" } as const;
    const exchange = await getAttemptExchange({ db, actor: support }, { sessionId: session.id, attemptId: uploadRequest!.id });
    expect(exchange).toMatchObject({
      recorded: true,
      responseBody: uploadRequest!.responseBody,
      responseBodyBytes: uploadRequest!.responseBodyBytes,
    });
    const owner = { id: randomUUID(), role: "owner" } as const;
    await expect(getAttemptExchange({ db, actor: owner }, { sessionId: session.id, attemptId: uploadRequest!.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(getAttemptExchange({ db, actor: support }, { sessionId: randomUUID(), attemptId: uploadRequest!.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
