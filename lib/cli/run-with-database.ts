import { closeDatabase } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-error";
import { ConfigurationError } from "@/lib/config/config";
import { firstLineOfError } from "@/lib/logging/safe-error";
import { startDatabase, type RuntimeDatabase } from "@/lib/runtime/start-database";
import { forTerminal } from "./terminal-output";

/**
 * Runs one CLI command against the app's database (DATABASE_URL, or the embedded
 * server under DATA_DIR — reused when the dashboard runs it). Failures end the
 * process with exit code 1 and a one-line message, never a stack trace.
 */
export async function runWithDatabase(command: () => Promise<void>): Promise<void> {
  let database: RuntimeDatabase | undefined;
  try {
    database = await startDatabase();
    await command();
  } catch (error) {
    process.stderr.write(`error: ${describeFailure(error)}\n`);
    process.exitCode = 1;
  } finally {
    await closeDatabase().catch(() => {});
    await database?.stop().catch(() => {});
  }
}

/** One line per problem; every piece escaped, since messages may quote input or the upstream's words. */
export function describeFailure(error: unknown): string {
  if (error instanceof DomainError) {
    const fields = error.fields.filter((field) => !error.message.includes(field.reason));
    return [error.message, ...fields.map((field) => `${field.field}: ${field.reason}`)].map(forTerminal).join("\n  ");
  }
  if (error instanceof ConfigurationError) return forTerminal(error.message);
  // First line only: a failed query's parameters follow its SQL on the next lines.
  if (error instanceof Error) return `${error.name}: ${forTerminal(firstLineOfError(error))}`;
  return "unexpected failure";
}
