import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureWorkerBundle } from "@/lib/build/build-workers";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const root = path.resolve(import.meta.dirname, "../../..");
let compiledCli: Promise<string> | undefined;

/**
 * Runs a CLI command as its own process, as `npm run cli -- <args>` does (the compiled CLI, built first when stale),
 * against `databaseUrl`, with `stdin` piped in and `env` added (tests).
 */
export async function runCli(
  databaseUrl: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const cli = await (compiledCli ??= ensureWorkerBundle("cli"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "development",
        DATABASE_URL: databaseUrl,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "cli-")),
        ...(process.env.APP_SECRET_KEY ? { APP_SECRET_KEY: process.env.APP_SECRET_KEY } : {}),
        ...options.env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
