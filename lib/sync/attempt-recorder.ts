import { sql } from "drizzle-orm";
import { AsyncLocalStorage } from "node:async_hooks";
import type { AttemptReport } from "@/lib/upstream/http";
import type { SessionFence } from "./session-fence";

interface Attribution {
  stepId: string | null;
  itemId: string | null;
}

/**
 * Writes each HTTP exchange the client reports (it reports at the end of the exchange) against the step and item
 * whose work made it: `attribute` runs that work, and the attribution follows its async calls (AsyncLocalStorage),
 * so items sent at the same time each keep their own exchanges. Writes are chained in order; `flush` waits for them
 * and surfaces a refused (fenced) write.
 */
export function createAttemptRecorder(fence: SessionFence) {
  const attribution = new AsyncLocalStorage<Attribution>();
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;

  function record(report: AttemptReport): void {
    const at = attribution.getStore() ?? { stepId: null, itemId: null };
    const exchange = report.exchange;
    const json = (value: Record<string, string> | null | undefined) => (value ? JSON.stringify(value) : null);
    chain = chain.then(() =>
      fence
        .write((tx) =>
          tx.execute(sql`
            insert into sync_attempts (session_id, step_id, item_id, operation, attempt, method, path, status, duration_ms, retry_delay_ms, error, records, bytes, body_sha256, started_at,
                                       request_headers, request_body, request_body_bytes, response_headers, response_body, response_body_bytes)
            values (${fence.sessionId}, ${at.stepId}, ${at.itemId}, ${report.operation}, ${report.attempt}, ${report.method}, ${report.path},
                    ${report.status ?? null}, ${Math.round(report.durationMs)}, ${report.retryDelayMs ?? null}, ${report.error ?? null},
                    ${report.records ?? null}, ${report.bytes ?? null}, ${report.sha256 ?? null}, ${report.startedAt.toISOString()},
                    ${json(exchange?.requestHeaders)}::jsonb, ${exchange?.requestBody ?? null}, ${exchange?.requestBodyBytes ?? null},
                    ${json(exchange?.responseHeaders)}::jsonb, ${exchange?.responseBody ?? null}, ${exchange?.responseBodyBytes ?? null})`),
        )
        .then(
          () => undefined,
          (error: unknown) => void (failure ??= error),
        ),
    );
  }

  return {
    record,
    /** Runs `work`; every exchange it reports is recorded against this step and item (null: the step itself). */
    attribute<T>(stepId: string, itemId: string | null, work: () => Promise<T>): Promise<T> {
      return attribution.run({ stepId, itemId }, work);
    },
    async flush(): Promise<void> {
      await chain;
      if (failure) throw failure;
    },
  };
}

export type AttemptRecorder = ReturnType<typeof createAttemptRecorder>;
