import { readFileSync } from "node:fs";
import path from "node:path";
import { globSync } from "node:fs";
import { defineConfig } from "vitest/config";

const include = ["lib/**/*.test.ts", "db/**/*.test.ts"];

// A file that uses the database, the environment, a process, a mock, a global, a late import or a module's switch
// runs in a fresh worker of its own. The others, pure functions, share their workers and evaluate shared modules once.
const needsIsolation =
  /useTestDatabase|process\.|setEnvironment|spawn|execFile|fork\(|startEmbedded|\bvi\.|globalThis|await import\(|Sandbox|\.enable\(/;
const sharedFiles = globSync(include, { cwd: import.meta.dirname }).filter(
  (file) => !needsIsolation.test(readFileSync(path.join(import.meta.dirname, file), "utf8")),
);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    globalSetup: ["./db/testing/global-setup.ts"],
    // Generous: several tests start CLI or worker processes (tsx) and a sandbox, slow on a loaded 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: keep the embedded server and the workers from starving each other.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "isolated", include, exclude: sharedFiles } },
      { extends: true, test: { name: "shared", include: sharedFiles, isolate: false } },
    ],
  },
});
