import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "db/**/*.test.ts"],
    globalSetup: ["./db/testing/global-setup.ts"],
    // Generous: several tests start CLI or worker processes (tsx) and a sandbox, slow on a loaded 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: keep the embedded server and the workers from starving each other.
    maxWorkers: 2,
  },
});
