import path from "node:path";

/**
 * Production mode: the operator runs NODE_ENV=production against their own
 * DATABASE_URL. Everything else (no DATABASE_URL) is the embedded default, which
 * seeds demo users and points staging at the built-in sandbox.
 */
export function isProductionMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production" && Boolean(env.DATABASE_URL) && env.LOCATION_SYNC_EMBEDDED !== "1";
}

/** True when this process (or the one that spawned it) runs on the embedded PostgreSQL. */
export function isEmbeddedMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LOCATION_SYNC_EMBEDDED === "1" || !env.DATABASE_URL;
}

export function dataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR ?? ".data");
}

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

export function assertProductionConfiguration(env: NodeJS.ProcessEnv = process.env): void {
  if (!isProductionMode(env)) return;
  const missing = ["APP_SECRET_KEY", "NEXTAUTH_SECRET"].filter((name) => !env[name]);
  if (missing.length) {
    throw new ConfigurationError(
      `Production mode (NODE_ENV=production with DATABASE_URL) needs ${missing.join(" and ")}. ` +
        "Generate each with: openssl rand -base64 32",
    );
  }
}
