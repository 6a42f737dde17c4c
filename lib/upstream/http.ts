import type { Readable } from "node:stream";
import { Agent, request, type Dispatcher } from "undici";
import {
  UpstreamAuthenticationError,
  UpstreamCancelledError,
  UpstreamError,
  UpstreamErrorBody,
  UpstreamInvalidResponseError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
  type UpstreamErrorInit,
} from "./errors";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { redactBody, redactHeaders, type ExchangeRecord } from "./exchange-record";
import { redactText, secretRedactor, truncateText } from "./redact";
import { AttemptFailure, parseRetryAfter } from "./retry";

/** One HTTP exchange, as the sync history shows it. Nothing in it is a secret. */
export interface AttemptReport {
  /** The client operation, e.g. "syncCalendars" or "importContactDetails". */
  operation: string;
  /** 1-based attempt of the operation this exchange belongs to. */
  attempt: number;
  method: string;
  /** Path (API) or host + path (upload address), secrets removed. */
  path: string;
  status?: number;
  startedAt: Date;
  durationMs: number;
  /** Why the exchange failed, redacted. */
  error?: string;
  /** Set when another attempt follows after this many milliseconds. */
  retryDelayMs?: number;
  /** Upload exchanges: records and bytes sent, and the SHA-256 of the body when it was sent whole. */
  records?: number;
  bytes?: number;
  sha256?: string | null;
  /** The request and response, redacted and truncated (lib/upstream/exchange-record.ts). */
  exchange?: ExchangeRecord;
}

export type AttemptListener = (report: AttemptReport) => void;

export interface Exchange {
  operation: string;
  attempt: number;
  method: "GET" | "POST" | "PUT";
  url: URL;
  /** The path as reported (already stripped of secrets). */
  reportedPath: string;
  headers: Record<string, string>;
  body?: string | Readable;
  timeoutMs: number;
  /** Cancellation from outside (not retried). */
  signal?: AbortSignal;
  /** Values to remove from anything reported or thrown. */
  secrets: readonly (string | undefined)[];
  /** The spec shows a body this answer must carry (an access token, an upload address): it is read whole or fails. */
  bodyShown?: boolean;
  /** Counts filled in while an upload body streams. */
  progress?: () => { records: number; bytes: number; sha256: string | null };
}

export interface ExchangeResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The response body's size as read: a body longer than the read limit (1 MB) is read that far. */
  bytes?: number;
}

// Keep at most this much of a response: enough for any error body, bounded for a hostile one.
const maxResponseBytes = 1024 * 1024;

/** A dispatcher that follows no redirects (undici's request never does) and bounds idle waits. */
export function createUpstreamDispatcher(options: { connectTimeoutMs?: number } = {}): Dispatcher {
  return new Agent({ connect: { timeout: options.connectTimeoutMs ?? 10_000 }, keepAliveTimeout: 4_000 });
}

/**
 * The response body up to the read limit: a longer one is cut there (its stream destroyed, not read on), and a read
 * that fails part way (a reset, the exchange's timeout) keeps what came before it, with the failure.
 */
async function readLimited(body: Readable & AsyncIterable<Buffer | Uint8Array>): Promise<{ text: string; bytes: number; failure?: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let failure: unknown;
  try {
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= maxResponseBytes) {
        body.destroy();
        break;
      }
    }
  } catch (error) {
    failure = error;
  }
  return { text: Buffer.concat(chunks).toString("utf8").slice(0, maxResponseBytes), bytes: size, ...(failure === undefined ? {} : { failure }) };
}

/** The exchange as the history keeps it: nothing secret, bodies bounded (an upload's streamed records are not kept). */
function recordExchange(exchange: Exchange, result: ExchangeResult | undefined): ExchangeRecord {
  const streamed = exchange.body !== undefined && typeof exchange.body !== "string";
  const redact = secretRedactor(exchange.secrets);
  return {
    requestHeaders: redactHeaders(exchange.headers, redact),
    requestBody: typeof exchange.body === "string" ? redactBody(exchange.body, redact) : null,
    requestBodyBytes: typeof exchange.body === "string" ? Buffer.byteLength(exchange.body) : streamed ? (exchange.progress?.().bytes ?? null) : null,
    responseHeaders: result ? redactHeaders(result.headers, redact) : null,
    responseBody: result ? redactBody(result.text, redact) : null,
    responseBodyBytes: result ? (result.bytes ?? Buffer.byteLength(result.text)) : null,
  };
}

// undici's own header and body timers run with the same limit as ours: whichever fires first, it is the same timeout.
const timeoutCodes = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function describeNetworkError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (timedOut || (typeof code === "string" && timeoutCodes.has(code))) return `timed out after ${timeoutMs} ms`;
  if (!(error instanceof Error)) return "network error";
  const causeCode = (error.cause as { code?: unknown } | undefined)?.code;
  return [typeof code === "string" ? code : undefined, typeof causeCode === "string" ? causeCode : undefined, error.message]
    .filter(Boolean)
    .join(": ");
}

/** The upstream's refusal in our terms; `retryable` for 408, 429 and 5xx. */
export function classifyFailure(
  result: ExchangeResult,
  exchange: Pick<Exchange, "method" | "reportedPath" | "secrets">,
): { error: UpstreamError; retryable: boolean; retryAfterMs?: number } {
  const { status } = result;
  const body = truncateText(redactText(result.text, exchange.secrets));
  const init: UpstreamErrorInit = { request: `${exchange.method} ${exchange.reportedPath}`, status, body };
  const parsed = parseErrorBody(result.text);
  if (parsed) {
    init.upstreamCode = parsed.error.code;
    init.details = (parsed.error.details ?? []).map((detail) => ({ ...detail, reason: redactText(detail.reason, exchange.secrets) }));
  }
  const said = parsed ? `: ${redactText(parsed.error.message, exchange.secrets)}` : "";
  const where = `${exchange.method} ${exchange.reportedPath}`;
  if (status >= 300 && status < 400) {
    const location = headerValue(result.headers, "location");
    const target = location ? ` to ${redactText(location, exchange.secrets).slice(0, 200)}` : "";
    return {
      error: new UpstreamInvalidResponseError(`${where} answered a redirect (${status})${target}; redirects are not followed`, init),
      retryable: false,
    };
  }
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(headerValue(result.headers, "retry-after"));
    return { error: new UpstreamUnavailableError(`${where} answered ${status}${said}`, init), retryable: true, retryAfterMs };
  }
  if (status === 401 || status === 403) {
    return { error: new UpstreamAuthenticationError(`${where} refused the credentials (${status})${said}`, init), retryable: false };
  }
  return { error: new UpstreamRejectedError(`${where} was rejected (${status})${said}`, init), retryable: false };
}

function parseErrorBody(text: string): UpstreamErrorBody | undefined {
  try {
    const parsed = UpstreamErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function headerValue(headers: ExchangeResult["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A streamed request body that was not read to its end. */
const bodyCutShort = (exchange: Exchange) => exchange.body !== undefined && typeof exchange.body !== "string" && !exchange.body.readableEnded;

/**
 * Performs one exchange and reports it. A 2xx is returned; anything else is thrown as an AttemptFailure
 * whose report the retry loop completes with its decision.
 */
export async function performExchange(exchange: Exchange, dispatcher: Dispatcher, onAttempt?: AttemptListener): Promise<ExchangeResult> {
  const startedAt = new Date();
  const base = { operation: exchange.operation, attempt: exchange.attempt, method: exchange.method, path: exchange.reportedPath, startedAt };
  let result: ExchangeResult | undefined;
  const emit = (extra: Partial<AttemptReport>) => {
    try {
      if (!onAttempt) return;
      const durationMs = Date.now() - startedAt.getTime();
      onAttempt({ ...base, durationMs, ...exchange.progress?.(), exchange: recordExchange(exchange, result), ...extra });
    } catch {
      // A failing listener must not fail the sync.
    }
  };
  const timeout = AbortSignal.timeout(exchange.timeoutMs);
  const signal = exchange.signal ? AbortSignal.any([timeout, exchange.signal]) : timeout;
  const sendStarted = phaseClock.start();
  try {
    const response = await request(exchange.url, {
      method: exchange.method,
      headers: exchange.headers,
      body: exchange.body,
      dispatcher,
      signal,
      headersTimeout: exchange.timeoutMs,
      bodyTimeout: exchange.timeoutMs,
    });
    const { failure, ...body } = await readLimited(response.body);
    // Where the spec shows no body, a 2xx is success whatever follows it: a body that never ends, trickles or breaks
    // off is kept as far as it came. Where it shows one, the body must arrive whole.
    const succeeded = response.statusCode >= 200 && response.statusCode < 300;
    if (failure !== undefined && (!succeeded || exchange.bodyShown || exchange.signal?.aborted)) throw failure;
    result = { status: response.statusCode, headers: response.headers, ...body };
  } catch (thrown) {
    if (thrown instanceof UpstreamError) {
      // Raised by our own body stream (e.g. a record failed validation): not the network's fault.
      throw new AttemptFailure(thrown, false, undefined, (retryDelayMs) => emit({ error: thrown.message, retryDelayMs }));
    }
    if (exchange.signal?.aborted) {
      const error = new UpstreamCancelledError(`${exchange.method} ${exchange.reportedPath} was cancelled`, {
        request: `${exchange.method} ${exchange.reportedPath}`,
      });
      throw new AttemptFailure(error, false, undefined, (retryDelayMs) => emit({ error: "cancelled", retryDelayMs }));
    }
    const reason = redactText(describeNetworkError(thrown, timeout.aborted, exchange.timeoutMs), exchange.secrets);
    const error = new UpstreamUnavailableError(`${exchange.method} ${exchange.reportedPath} failed: ${reason}`, {
      request: `${exchange.method} ${exchange.reportedPath}`,
    });
    throw new AttemptFailure(error, true, undefined, (retryDelayMs) => emit({ error: reason, retryDelayMs }));
  } finally {
    phaseClock.stop("send", sendStarted);
  }
  const answered = result;
  if (answered.status >= 200 && answered.status < 300 && bodyCutShort(exchange)) {
    // The answer came before the whole streamed body was taken (undici then stops sending it): whatever the status
    // says, the host cannot have received every record, so nothing of the upload counts as accepted.
    const where = `${exchange.method} ${exchange.reportedPath}`;
    const reason = `answered ${answered.status} before the whole body was sent`;
    const error = new UpstreamUnavailableError(`${where} ${reason}`, { request: where, status: answered.status });
    throw new AttemptFailure(error, true, undefined, (retryDelayMs) => emit({ status: answered.status, error: reason, retryDelayMs }));
  }
  if (answered.status >= 200 && answered.status < 300) {
    emit({ status: answered.status });
    return answered;
  }
  const failure = classifyFailure(answered, exchange);
  throw new AttemptFailure(failure.error, failure.retryable, failure.retryAfterMs, (retryDelayMs) =>
    emit({ status: answered.status, error: failure.error.message, retryDelayMs }),
  );
}
