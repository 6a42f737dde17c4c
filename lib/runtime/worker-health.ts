import { createServer, type Server } from "node:http";
import type { Database } from "@/db/client";
import { getConfig, type Config } from "@/lib/config/config";
import { healthResponse } from "./health";

/**
 * The readiness check of a standalone worker, for a supervisor: with WORKER_HEALTH_PORT set, `GET /health` answers
 * 200 `{ status: "ok" }` while this process takes jobs and its database is reachable and migrated, else 503.
 * It listens on WORKER_HEALTH_HOST (default 127.0.0.1; 0.0.0.0 when the probe comes from outside, e.g. a kubelet).
 */
export async function startWorkerHealthServer(options: {
  port: number;
  host?: string;
  database: () => Database;
  /** False once the worker is stopping: a supervisor must not count on it any more. */
  takingJobs: () => boolean;
}): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== "GET" || request.url !== "/health") {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ status: "not found" }));
        return;
      }
      const answer = options.takingJobs() ? await healthResponse(options.database()) : Response.json({ status: "unavailable" }, { status: 503 });
      response.writeHead(answer.status, { "content-type": "application/json", "cache-control": "no-store" }).end(await answer.text());
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  return server;
}

/** WORKER_HEALTH_PORT as a port number (checked by lib/config); unset = no health endpoint. */
export function workerHealthPort(config: Config = getConfig()): number | null {
  return config.WORKER_HEALTH_PORT ?? null;
}
