import { once } from "node:events";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import { connectDatabase, type Database } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import type { SandboxContext, SandboxStats } from "./context";
import { areFaultsEnabled } from "./fault-policy";
import { handleSandboxRequest } from "./handle-request";
import type { SandboxErrorShape } from "./response-shapes";
import { describeErrorForLog } from "@/lib/logging/safe-error";

export interface SandboxServer {
  /** `{base_url}`: append `/v1/...`. */
  apiBaseUrl: string;
  /** Origin of the upload listener; put_data_url values start with `${uploadOrigin}/uploads/`. */
  uploadOrigin: string;
  /** Count-only totals (also at GET {apiBaseUrl}/__sandbox/stats). */
  stats: SandboxStats;
  db: Database;
  close: () => Promise<void>;
}

export interface StartSandboxServerOptions {
  db?: Database;
  /** Used when no db is given; defaults to DATABASE_URL. */
  databaseUrl?: string;
  countOnly?: boolean;
  faultsEnabled?: boolean;
  /** How errors are answered (lib/sandbox/response-shapes.ts); default `documented`. */
  errorShape?: SandboxErrorShape;
  host?: string;
  apiPort?: number;
  uploadPort?: number;
  uploadTtlSeconds?: number;
  now?: () => Date;
  /**
   * Held before every answer, on both ports (benchmarks: a real upstream is a round trip plus its own processing
   * away, lib/bench/fleet-bench.ts). Default 0.
   */
  latencyMs?: number;
}

/**
 * The request body as a web stream that pauses the socket while the consumer is busy,
 * so a slow consumer (validation, inserts) never makes a large upload pile up in memory.
 */
function toWebStream(incoming: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        // After a cancel the controller is closed; late events must not throw out of the emitter.
        let ended = false;
        incoming.once("end", () => {
          ended = true;
          try {
            controller.close();
          } catch {}
        });
        // A client that disconnects mid-body may surface only as "close".
        incoming.once("close", () => {
          if (ended) return;
          try {
            controller.error(new Error("the client closed the connection mid-body"));
          } catch {}
        });
        incoming.once("error", (error) => {
          try {
            controller.error(error);
          } catch {}
        });
        incoming.pause();
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        // Drain what is left so the answer can still be sent on this connection.
        incoming.removeAllListeners("data");
        incoming.resume();
      },
    },
    { highWaterMark: 8 },
  );
}

function toWebRequest(incoming: http.IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    body: hasBody ? toWebStream(incoming) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function sendWebResponse(response: Response, outgoing: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  outgoing.writeHead(response.status, headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await once(outgoing, "drain");
    }
    outgoing.end();
  } catch {
    // A failing body stream is how an injected "reset" reaches the socket.
    outgoing.socket?.destroy();
    outgoing.destroy();
  }
}

function listen(context: SandboxContext, host: string, port: number, latencyMs: number): Promise<http.Server> {
  const server = http.createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? `${host}:${(server.address() as AddressInfo).port}`}`;
    handleSandboxRequest(toWebRequest(incoming, origin), context)
      .then(async (response) => {
        if (latencyMs > 0) await sleep(latencyMs);
        await sendWebResponse(response, outgoing);
      })
      .catch((error: unknown) => {
        console.error(`sandbox: request failed: ${describeErrorForLog(error)}`);
        outgoing.destroy();
      });
  });
  // Uploads of hundreds of MB may take a while on a busy machine.
  server.requestTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** The sandbox on two local ports: the API and, apart from it, the upload addresses. */
export async function startSandboxServer(options: StartSandboxServerOptions = {}): Promise<SandboxServer> {
  const url = options.databaseUrl ?? getConfig().DATABASE_URL;
  const connection = options.db ? undefined : url ? connectDatabase(url) : undefined;
  const db = options.db ?? connection?.db;
  if (!db) throw new Error("startSandboxServer: give db, databaseUrl or set DATABASE_URL");
  const host = options.host ?? "127.0.0.1";
  const latencyMs = options.latencyMs ?? 0;
  const stats: SandboxStats = { uploads: 0, records: 0, bytes: 0 };
  const shared = {
    db,
    countOnly: options.countOnly ?? false,
    faultsEnabled: options.faultsEnabled ?? areFaultsEnabled(),
    errorShape: options.errorShape,
    uploadTtlSeconds: options.uploadTtlSeconds,
    now: options.now,
    stats,
  };
  const uploadServer = await listen(
    { ...shared, serve: "upload", apiPrefix: "", uploadPrefix: "/uploads" },
    host,
    options.uploadPort ?? 0,
    latencyMs,
  );
  const uploadOrigin = `http://${host}:${(uploadServer.address() as AddressInfo).port}`;
  const apiServer = await listen(
    { ...shared, serve: "api", apiPrefix: "", uploadPrefix: "/uploads", controlPrefix: "/__sandbox", uploadBaseUrl: `${uploadOrigin}/uploads` },
    host,
    options.apiPort ?? 0,
    latencyMs,
  );
  const apiBaseUrl = `http://${host}:${(apiServer.address() as AddressInfo).port}`;
  const closeServer = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    apiBaseUrl,
    uploadOrigin,
    stats,
    db,
    close: async () => {
      await Promise.all([closeServer(apiServer), closeServer(uploadServer)]);
      await connection?.close();
    },
  };
}
