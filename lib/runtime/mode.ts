import path from "node:path";
import { ConfigurationError, getConfig, type Config } from "@/lib/config/config";

export { ConfigurationError };

/**
 * Production mode: the operator runs NODE_ENV=production against their own
 * DATABASE_URL. Everything else (no DATABASE_URL) is the embedded default, which
 * seeds demo users and points staging at the built-in sandbox.
 */
export function isProductionMode(config: Config = getConfig()): boolean {
  return config.NODE_ENV === "production" && Boolean(config.DATABASE_URL) && !config.LOCATION_SYNC_EMBEDDED;
}

/** True when this process (or the one that spawned it) runs on the embedded PostgreSQL. */
export function isEmbeddedMode(config: Config = getConfig()): boolean {
  return config.LOCATION_SYNC_EMBEDDED || !config.DATABASE_URL;
}

export function dataDirectory(config: Config = getConfig()): string {
  return path.resolve(config.DATA_DIR);
}

export function assertProductionConfiguration(config: Config = getConfig()): void {
  if (!isProductionMode(config)) return;
  const missing = (["APP_SECRET_KEY", "NEXTAUTH_SECRET"] as const).filter((name) => !config[name]);
  if (missing.length) {
    throw new ConfigurationError(
      `Production mode (NODE_ENV=production with DATABASE_URL) needs ${missing.join(" and ")}. ` + "Generate each with: openssl rand -base64 32",
    );
  }
}
