import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/config";
import { assertProductionConfiguration, ConfigurationError, isProductionMode } from "./mode";

const key = Buffer.alloc(32, 7).toString("base64");

describe("production mode", () => {
  it("is NODE_ENV=production with an operator-given DATABASE_URL, not the embedded default", () => {
    expect(isProductionMode(parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" }))).toBe(true);
    expect(isProductionMode(parseConfig({ NODE_ENV: "production" }))).toBe(false);
    expect(isProductionMode(parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://127.0.0.1/x", LOCATION_SYNC_EMBEDDED: "1" }))).toBe(
      false,
    );
    expect(isProductionMode(parseConfig({ NODE_ENV: "development", DATABASE_URL: "postgres://db/x" }))).toBe(false);
  });

  it("refuses to run without APP_SECRET_KEY and NEXTAUTH_SECRET, naming both", () => {
    expect(() => assertProductionConfiguration(parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" }))).toThrow(ConfigurationError);
    expect(() => assertProductionConfiguration(parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" }))).toThrow(
      /APP_SECRET_KEY and NEXTAUTH_SECRET/,
    );
    expect(() =>
      assertProductionConfiguration(
        parseConfig({
          NODE_ENV: "production",
          DATABASE_URL: "postgres://db/x",
          APP_SECRET_KEY: key,
          NEXTAUTH_SECRET: "s",
          SUPPORT_EMAIL: "support@salons.de",
        }),
      ),
    ).not.toThrow();
  });

  it("the server exits with that message before touching the database", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "lib/runtime/server.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Production mode (NODE_ENV=production with DATABASE_URL) needs APP_SECRET_KEY and NEXTAUTH_SECRET");
    expect(run.stderr).toContain("Production mode needs SUPPORT_EMAIL");
  });
});
