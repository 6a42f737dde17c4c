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

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const month = `(${monthNames.join("|")})`;
const time = "(\\d{2}):(\\d{2}):(\\d{2})";
// RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms a recipient must still read (RFC 850, asctime).
const imfFixdate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
const rfc850Date = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
const asctimeDate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${month} ( \\d|\\d{2}) ${time} (\\d{4})$`);

/** An HTTP date as milliseconds since the epoch, or undefined when `value` is none (or names no real moment). */
function parseHttpDate(value: string, now: number): number | undefined {
  let parts: [day: string, month: string, year: number, hour: string, minute: string, second: string] | undefined;
  let match = imfFixdate.exec(value);
  if (match) parts = [match[1]!, match[2]!, Number(match[3]), match[4]!, match[5]!, match[6]!];
  else if ((match = rfc850Date.exec(value))) {
    // A two-digit year more than 50 years ahead is of the century before (RFC 9110 §5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    parts = [match[1]!, match[2]!, year, match[4]!, match[5]!, match[6]!];
  } else if ((match = asctimeDate.exec(value))) parts = [match[2]!.trim(), match[1]!, Number(match[6]), match[3]!, match[4]!, match[5]!];
  if (!parts) return undefined;
  const [day, monthName, year, hour, minute, second] = parts;
  const at = Date.UTC(year, monthNames.indexOf(monthName), Number(day), Number(hour), Number(minute), Number(second));
  const date = new Date(at);
  // 31 Feb or 25:00 would roll over into another moment: no date at all.
  if (date.getUTCDate() !== Number(day) || date.getUTCHours() !== Number(hour) || date.getUTCMinutes() !== Number(minute)) return undefined;
  if (date.getUTCSeconds() !== Number(second)) return undefined;
  return at;
}

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date (a date in the past means now); undefined
 * when absent or anything else, so that the backoff applies.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = parseHttpDate(trimmed, now);
  return at === undefined ? undefined : Math.max(0, at - now);
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
