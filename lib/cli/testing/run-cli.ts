import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const root = path.resolve(import.meta.dirname, "../../..");

/** Runs `npm run cli -- <args>` as its own process against `databaseUrl`, with `stdin` piped in (tests). */
export function runCli(databaseUrl: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "lib/cli/main.ts"), ...args], {
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
