import { UpstreamError } from "./errors";

export interface RetryPolicy {
  /** Attempts in all, the first included (1 = no retry). */
  maxAttempts: number;
  /** Ceiling of the first backoff; doubles each attempt. */
  baseDelayMs: number;
  /** Ceiling of any backoff. */
  maxDelayMs: number;
  /** A Retry-After longer than this ends the retries instead of blocking a worker for hours. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 300_000 };

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date (RFC 9110 IMF-fixdate, e.g. "Wed, 21 Oct 2026 07:28:00 GMT"); a date in the past means now.
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^(attempt-1))). */
export function computeBackoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** The wait before the next attempt: what the upstream asked for when it said, else the jittered backoff. */
export function chooseRetryDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number, random?: () => number): number {
  return retryAfterMs === undefined ? computeBackoffDelay(attempt, policy, random) : retryAfterMs;
}

/** Thrown by one attempt: the error to surface and whether another attempt may succeed. */
export class AttemptFailure extends Error {
  constructor(
    readonly error: UpstreamError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    /** Called with the chosen delay (or undefined when giving up) so the attempt is reported once, complete. */
    readonly report?: (retryDelayMs: number | undefined) => void,
  ) {
    super(error.message);
    this.name = "AttemptFailure";
  }
}

export interface RetryRuntime {
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Ends a backoff wait early; the next attempt then fails as cancelled. */
  signal?: AbortSignal;
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Runs `attempt` until it succeeds, fails for good, or `policy.maxAttempts` is reached. */
export async function runWithRetries<T>(policy: RetryPolicy, attempt: (number: number) => Promise<T>, runtime: RetryRuntime = {}): Promise<T> {
  const sleep = runtime.sleep ?? ((ms: number) => sleepUnlessAborted(ms, runtime.signal));
  for (let number = 1; ; number += 1) {
    try {
      return await attempt(number);
    } catch (thrown) {
      if (!(thrown instanceof AttemptFailure)) throw thrown;
      const delay = chooseRetryDelay(number, policy, thrown.retryAfterMs, runtime.random);
      const retry = thrown.retryable && number < policy.maxAttempts && delay <= policy.maxRetryAfterMs;
      thrown.report?.(retry ? delay : undefined);
      if (!retry) {
        thrown.error.attempts = number;
        throw thrown.error;
      }
      await sleep(delay);
    }
  }
}
