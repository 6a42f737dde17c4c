import { afterAll, expect } from "vitest";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locations, previewRuns, sandboxRecords, sandboxRequestLog, syncSessions } from "@/db/schema";
import { systemContext } from "@/lib/operations/context";
import { computePreview } from "@/lib/preview/compute-preview";
import { systemActor } from "@/lib/audit/record-audit-event";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import { connectLocation } from "@/lib/locations/connect-location";
import { createSandboxLocation } from "@/lib/sandbox/provision";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { createSandboxFixture, type SandboxFixture } from "@/lib/sandbox/testing";
import type { SourceReader } from "@/lib/source/source-reader";
import type { UpstreamClientOptions } from "@/lib/upstream/client";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { requestSyncSession } from "../request-session";
import { runSession } from "../run-session";
import type { SyncConfig } from "../sync-config";
import { sampleNow } from "./sample-source";

/** Client retries without real waits. */
export const noWaits = { retryRuntime: { random: () => 0, sleep: async () => {} } };

export interface SyncSandbox {
  sandbox: SandboxServer;
  fixture: SandboxFixture;
  close: () => Promise<void>;
}

/** A test file's sandbox (startSyncSandbox), closed with the job sender when the file ends. */
export async function useSyncSandbox(db: Database): Promise<SyncSandbox> {
  const setup = await startSyncSandbox(db);
  afterAll(async () => {
    await setup.close();
    await stopJobSender();
  });
  return setup;
}

/** The sandbox over real HTTP, with the staging environment pointing at it. */
export async function startSyncSandbox(db: Database): Promise<SyncSandbox> {
  const sandbox = await startSandboxServer({ db, faultsEnabled: true });
  const fixture = await createSandboxFixture(db);
  await pointEnvironmentAtSandbox(
    { db, actor: systemActor },
    { name: "staging", apiBaseUrl: sandbox.apiBaseUrl, uploadOrigin: sandbox.uploadOrigin, credentials: fixture },
  );
  return { sandbox, fixture, close: () => sandbox.close() };
}

let address = 0;

/** A location linked to a fresh sandbox location and connected through the owner token flow. */
export async function createConnectedLocation(db: Database, setup: SyncSandbox, values: Partial<typeof locations.$inferInsert> = {}) {
  const upstreamLocationId = await createSandboxLocation(db, { ownerId: setup.fixture.owner.id });
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, environment: "staging", upstreamLocationId, timeZone: "Europe/Berlin", country: "DE", ...values })
    .returning();
  const actor = systemActorAs("support@example.test", `198.51.100.${++address % 250}`);
  await connectLocation(
    { db, actor: actor, upstreamClient: noWaits },
    { locationId: row!.id, email: setup.fixture.owner.email, password: setup.fixture.owner.password },
  );
  return { ...row!, upstreamLocationId };
}

/** "METHOD endpoint status" of every request the sandbox saw for an upstream location, in order. */
export async function sandboxRequests(db: Database, upstreamLocationId: string): Promise<string[]> {
  const rows = await db.select().from(sandboxRequestLog).where(eq(sandboxRequestLog.locationId, upstreamLocationId)).orderBy(sandboxRequestLog.id);
  return rows.map((row) => `${row.method} ${row.endpoint} ${row.status}`);
}

/** The sandbox's stored records of one type, keyed. */
export async function sandboxStored(db: Database, upstreamLocationId: string, type: (typeof sandboxRecords.$inferSelect)["type"]) {
  const rows = await db.select().from(sandboxRecords).where(eq(sandboxRecords.locationId, upstreamLocationId));
  return new Map(rows.filter((row) => row.type === type).map((row) => [row.key, row.data]));
}

export interface TestSyncOptions {
  /** How the session must end (default: succeeded, without an error). */
  expect?: "succeeded" | "failed";
  config?: Partial<SyncConfig>;
  /** Upstream client options, over `noWaits`. */
  client?: Partial<UpstreamClientOptions>;
  now?: Date;
}

/** Runs a requested session in this process against `source` (rows, copied, or a reader), checks how it ended and returns its row. */
export async function runTestSync(db: Database, sessionId: string, source: SourceRows | SourceReader, options: TestSyncOptions = {}) {
  const reader =
    "read" in source && typeof source.read === "function" ? (source as SourceReader) : createArraySourceReader(structuredClone(source as SourceRows));
  const now = options.now ?? sampleNow;
  const result = await runSession(systemContext(db), {
    sessionId,
    reader,
    now,
    client: { ...noWaits, ...options.client },
    config: { stepBackoffMs: 0, ...options.config },
  });
  const [session] = await db.select().from(syncSessions).where(eq(syncSessions.id, sessionId));
  await computeQueuedPreview(db, session!.locationId, reader, now);
  const expected = options.expect ?? "succeeded";
  expect({ result, error: expected === "succeeded" ? session!.error : null }).toEqual({ result: expected, error: null });
  return session!;
}

/**
 * Computes the location's queued preview run here, as the preview job would (a streamed session queues one when the
 * location has none): tests compare what the upstream holds with what the preview says a sync sends.
 */
export async function computeQueuedPreview(db: Database, locationId: string, reader: SourceReader, now: Date = new Date()): Promise<void> {
  const queued = await db
    .select()
    .from(previewRuns)
    .where(and(eq(previewRuns.locationId, locationId), eq(previewRuns.status, "queued")));
  for (const run of queued) await computePreview(systemContext(db), { runId: run.id, reader, now });
}

/** "Sync now" for a location, run in this process (runTestSync). */
export async function runManualTestSync(db: Database, locationId: string, source: SourceRows | SourceReader, options: TestSyncOptions = {}) {
  const requested = await requestSyncSession(systemContext(db), { locationId, trigger: "manual", requestedByEmail: null });
  return runTestSync(db, requested.sessionId!, source, options);
}
