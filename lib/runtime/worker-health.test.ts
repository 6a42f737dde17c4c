import { describe, expect, it } from "vitest";
import { findFreePort } from "@/db/embedded";
import { useTestDatabase } from "@/db/testing/test-database";
import { parseConfig } from "@/lib/config/config";
import { startWorkerHealthServer, workerHealthPort } from "./worker-health";

const testDb = await useTestDatabase();

describe("the worker's readiness check", () => {
  it("answers 200 while taking jobs and 503 once stopping; other paths are 404", async () => {
    let takingJobs = true;
    const port = await findFreePort();
    const server = await startWorkerHealthServer({ port, database: () => testDb.db, takingJobs: () => takingJobs });
    try {
      const ready = await fetch(`http://127.0.0.1:${port}/health`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: "ok" }]);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      takingJobs = false;
      const stopping = await fetch(`http://127.0.0.1:${port}/health`);
      expect([stopping.status, await stopping.json()]).toEqual([503, { status: "unavailable" }]);
    } finally {
      server.close();
    }
  });

  it("reads WORKER_HEALTH_PORT, refusing what is not a port", () => {
    expect(workerHealthPort(parseConfig({}))).toBeNull();
    expect(workerHealthPort(parseConfig({ WORKER_HEALTH_PORT: "9464" }))).toBe(9464);
    expect(() => workerHealthPort(parseConfig({ WORKER_HEALTH_PORT: "http" }))).toThrow(/WORKER_HEALTH_PORT must be a port number/);
  });
});
