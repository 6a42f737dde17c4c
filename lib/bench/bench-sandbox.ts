import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { findFreePort } from "@/db/embedded";
import { sandboxDemo } from "@/lib/sandbox/provision";

export interface BenchSandbox {
  apiBaseUrl: string;
  uploadOrigin: string;
  /** The count-only totals so far: uploads, records, bytes. */
  stats: () => Promise<{ uploads: number; records: number; bytes: number }>;
  stop: () => Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");

/**
 * `npm run sandbox -- --count-only` on free ports, keeping its state in the given database, or in its own embedded
 * database folder (one sandbox process per folder, so a developer's running sandbox is left alone). `latencyMs` holds
 * every answer that long (the sandbox's `--latency-ms`).
 */
export async function startCountOnlySandbox(
  store: { databaseUrl: string } | { dataDir: string },
  options: { latencyMs?: number } = {},
): Promise<BenchSandbox> {
  const [apiPort, uploadPort] = [await findFreePort(), await findFreePort()];
  const storeArgs = "databaseUrl" in store ? ["--database-url", store.databaseUrl] : ["--data-dir", store.dataDir];
  const latencyArgs = options.latencyMs ? ["--latency-ms", String(options.latencyMs)] : [];
  const child: ChildProcess = spawn(
    path.join(repoRoot, "node_modules/.bin/tsx"),
    ["lib/sandbox/standalone.ts", "--count-only", "--api-port", String(apiPort), "--upload-port", String(uploadPort), ...latencyArgs, ...storeArgs],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    // An embedded database folder's first start creates the cluster.
    const timer = setTimeout(() => reject(new Error(`sandbox did not start within 180 s:\n${output}`)), 180_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (/\[sandbox\] stats/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
  child.stdout!.resume();
  const apiBaseUrl = `http://127.0.0.1:${apiPort}`;
  return {
    apiBaseUrl,
    uploadOrigin: `http://127.0.0.1:${uploadPort}`,
    stats: async () => {
      const response = await fetch(`${apiBaseUrl}/__sandbox/stats`, { headers: { "x-api-key": sandboxDemo.apiKey } });
      return (await response.json()) as { uploads: number; records: number; bytes: number };
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
