import type { AttemptReport } from "@/lib/upstream/http";
import type { SessionFence } from "./session-fence";

/**
 * Writes each HTTP exchange the client reports (it reports at the end of the exchange)
 * against the step and item running at that moment. Writes are chained in order;
 * `flush` waits for them and surfaces a refused (fenced) write.
 */
export function createAttemptRecorder(fence: SessionFence) {
  let current: { stepId: string | null; itemId: string | null } = { stepId: null, itemId: null };
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;

  function record(report: AttemptReport): void {
    const at = { ...current };
    chain = chain.then(() =>
      fence
        .write(
          (tx) => tx`
            insert into sync_attempts (session_id, step_id, item_id, operation, attempt, method, path, status, duration_ms, retry_delay_ms, error, records, bytes, started_at)
            values (${fence.sessionId}, ${at.stepId}, ${at.itemId}, ${report.operation}, ${report.attempt}, ${report.method}, ${report.path},
                    ${report.status ?? null}, ${Math.round(report.durationMs)}, ${report.retryDelayMs ?? null}, ${report.error ?? null},
                    ${report.records ?? null}, ${report.bytes ?? null}, ${report.startedAt.toISOString()})`,
        )
        .then(
          () => undefined,
          (error: unknown) => void (failure ??= error),
        ),
    );
  }

  return {
    record,
    setCurrent(stepId: string | null, itemId: string | null) {
      current = { stepId, itemId };
    },
    async flush(): Promise<void> {
      await chain;
      if (failure) throw failure;
    },
  };
}

export type AttemptRecorder = ReturnType<typeof createAttemptRecorder>;
