import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction, DatabaseTransaction } from "@/db/client";
import { environments } from "@/db/schema";
import { environmentSecretContext } from "@/lib/crypto/encrypted-columns";
import { openSecret, SecretBoxError } from "@/lib/crypto/secret-box";
import { DomainError, type FieldProblem } from "@/lib/errors/domain-error";
import { ensureEnvironments } from "./ensure-environments";
import { defaultDateTimeStyle, type DateTimeStyle } from "@/lib/upstream/formats";
import type { EnvironmentName } from "./environment-inputs";

/** Decrypted credentials for the upstream client. Server-side only: never return this from a route or page. */
export interface EnvironmentCredentials {
  name: EnvironmentName;
  baseUrl: string;
  uploadHosts: string[];
  apiKey: string;
  clientId: string;
  clientSecret: string;
  dataSourceName: string;
  /** How date-times are written to this environment (the records' mapping and the client's checks). */
  dateTimeStyle: DateTimeStyle;
}

const labels = {
  baseUrl: "base URL",
  uploadHosts: "upload hosts",
  clientId: "client ID",
  dataSourceName: "data source name",
  apiKey: "API key",
  clientSecret: "client secret",
} as const;

export async function getEnvironmentCredentials(db: DatabaseOrTransaction, name: EnvironmentName): Promise<EnvironmentCredentials> {
  await ensureEnvironments(db);
  const [row] = await db.select().from(environments).where(eq(environments.name, name));
  if (!row) throw new DomainError("NOT_FOUND", `Environment ${name} not found.`);
  const present = {
    baseUrl: Boolean(row.baseUrl),
    uploadHosts: row.uploadHosts.length > 0,
    clientId: Boolean(row.clientId),
    dataSourceName: Boolean(row.dataSourceName),
    apiKey: Boolean(row.apiKeyEncrypted),
    clientSecret: Boolean(row.clientSecretEncrypted),
  };
  const missing = (Object.keys(present) as (keyof typeof present)[]).filter((field) => !present[field]);
  if (missing.length) {
    const fields: FieldProblem[] = missing.map((field) => ({ field, reason: "not set" }));
    throw new DomainError(
      "NOT_CONFIGURED",
      `The ${name} environment is not configured: ${missing.map((field) => labels[field]).join(", ")} missing. An admin sets it under Settings → Environments.`,
      fields,
    );
  }
  return {
    name,
    baseUrl: row.baseUrl!,
    uploadHosts: row.uploadHosts,
    apiKey: openEnvironmentSecret(name, "apiKey", row.apiKeyEncrypted!),
    clientId: row.clientId!,
    clientSecret: openEnvironmentSecret(name, "clientSecret", row.clientSecretEncrypted!),
    dataSourceName: row.dataSourceName!,
    dateTimeStyle: row.dateTimeStyle,
  };
}

/** A secret sealed under a key the keyring no longer holds (docs/security.md, "lost key") is the admin's to enter again. */
function openEnvironmentSecret(name: EnvironmentName, field: "apiKey" | "clientSecret", sealed: string): string {
  try {
    return openSecret(sealed, environmentSecretContext[field](name));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    // The operator's part (which key id is missing, where to put it back) goes to the log, not to the caller.
    console.warn(`[secrets] ${error.message}`);
    throw new DomainError(
      "NOT_CONFIGURED",
      `The ${name} environment's ${labels[field]} cannot be decrypted with the current encryption keys, so nothing was sent. An admin enters it again under Settings → Environments.`,
      [{ field, reason: "cannot be decrypted with the current keys: re-enter it" }],
    );
  }
}

/**
 * The environment's base URL under a share lock, inside the caller's transaction: a change of it committed before is
 * seen, and one that comes later waits for the transaction (it re-points the connected locations' tokens).
 */
export async function lockEnvironmentBaseUrl(tx: DatabaseTransaction, name: EnvironmentName): Promise<string | null> {
  const [row] = await tx.select({ baseUrl: environments.baseUrl }).from(environments).where(eq(environments.name, name)).for("share");
  return row?.baseUrl ?? null;
}

/** How date-times are written to an environment, whether or not it is configured yet (a preview needs no credentials). */
export async function environmentDateTimeStyle(db: DatabaseOrTransaction, name: EnvironmentName): Promise<DateTimeStyle> {
  const [row] = await db.select({ dateTimeStyle: environments.dateTimeStyle }).from(environments).where(eq(environments.name, name));
  return row?.dateTimeStyle ?? defaultDateTimeStyle;
}
