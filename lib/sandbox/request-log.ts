import { lt } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sandboxRequestLog } from "@/db/schema";
import { describeError, type SandboxError } from "./errors";
import { describeErrorForLog } from "@/lib/logging/safe-error";

export async function logSandboxRequest(
  db: Database,
  entry: { method: string; path: string; endpoint: string; locationId?: string; outcome: { response: Response; error?: SandboxError } },
): Promise<void> {
  const { response, error } = entry.outcome;
  const reset = response.headers.get("x-sandbox-fault") === "reset";
  await db
    .insert(sandboxRequestLog)
    .values({
      method: entry.method,
      path: entry.path.slice(0, 500),
      endpoint: entry.endpoint,
      locationId: entry.locationId ?? null,
      status: reset ? 0 : response.status,
      code: reset ? "injected_reset" : (error?.code ?? null),
      reason: reset ? "connection reset (injected)" : error ? describeError(error).slice(0, 1000) : null,
    })
    .catch((failure: unknown) => console.error(`sandbox: request log failed: ${describeErrorForLog(failure)}`));
}

/** Drops request-log entries older than `keepDays` (the log is for inspection, not an archive). */
export async function pruneSandboxRequestLog(db: Database, input: { keepDays?: number; now?: Date } = {}): Promise<number> {
  const cutoff = new Date((input.now ?? new Date()).getTime() - (input.keepDays ?? 14) * 86_400_000);
  const deleted = await db.delete(sandboxRequestLog).where(lt(sandboxRequestLog.at, cutoff)).returning({ id: sandboxRequestLog.id });
  return deleted.length;
}
