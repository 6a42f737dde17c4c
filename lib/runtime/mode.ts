import path from "node:path";
import { ConfigurationError, DEMO_SUPPORT_EMAIL, getConfig, reservedMailDomainOf, type Config } from "@/lib/config/config";

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

/** Every setting production mode needs and the demo fills in, at once: the start ends with what is missing or wrong. */
export function assertProductionConfiguration(config: Config = getConfig()): void {
  if (!isProductionMode(config)) return;
  const problems: string[] = [];
  const missing = (["APP_SECRET_KEY", "NEXTAUTH_SECRET"] as const).filter((name) => !config[name]);
  if (missing.length) {
    problems.push(
      `Production mode (NODE_ENV=production with DATABASE_URL) needs ${missing.join(" and ")}. Generate each with: openssl rand -base64 32`,
    );
  }
  const supportEmailProblem = productionSupportEmailProblem(config.SUPPORT_EMAIL);
  if (supportEmailProblem) problems.push(supportEmailProblem);
  if (problems.length) throw new ConfigurationError(problems.join(" "));
}

// Business owners are shown this address to write to: one that receives no mail leaves them without help.
function productionSupportEmailProblem(address: string): string | undefined {
  if (address === DEMO_SUPPORT_EMAIL) {
    return "Production mode needs SUPPORT_EMAIL: the address business owners write to about their syncs (shown on their location pages), e.g. SUPPORT_EMAIL=support@your-company.com.";
  }
  const reserved = reservedMailDomainOf(address);
  if (reserved) {
    return `SUPPORT_EMAIL must be an address that receives mail in production mode, not ${JSON.stringify(address)}: ${reserved} is reserved for examples and tests.`;
  }
  return undefined;
}
