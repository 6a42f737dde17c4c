import { z } from "zod";

export type UpstreamErrorCode =
  "UPSTREAM_AUTHENTICATION" | "UPSTREAM_REJECTED" | "UPSTREAM_UNAVAILABLE" | "UPSTREAM_UPLOAD" | "UPSTREAM_INVALID_RESPONSE" | "UPSTREAM_CANCELLED";

/** One reason the upstream gave for refusing records (`index` = position in the sent array). */
export const UpstreamErrorDetail = z.object({
  index: z.number().int().optional(),
  field: z.string().optional(),
  reason: z.string(),
});
export type UpstreamErrorDetail = z.infer<typeof UpstreamErrorDetail>;

/** The error body the sandbox answers with; the real service may answer anything else (kept as text). */
export const UpstreamErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(UpstreamErrorDetail).optional(),
  }),
});
export type UpstreamErrorBody = z.infer<typeof UpstreamErrorBody>;

export interface UpstreamErrorInit {
  /** "METHOD path" of the exchange that failed, path already free of secrets. */
  request?: string;
  status?: number;
  /** The upstream's answer, redacted and truncated. */
  body?: string;
  upstreamCode?: string;
  details?: UpstreamErrorDetail[];
  attempts?: number;
  cause?: unknown;
}

/** Base of every failure of the upstream client; message, body and details never hold a secret. */
export class UpstreamError extends Error {
  readonly request?: string;
  readonly status?: number;
  readonly body?: string;
  readonly upstreamCode?: string;
  readonly details: UpstreamErrorDetail[];
  /** How many attempts were made before giving up (set by the retry loop). */
  attempts?: number;

  constructor(
    readonly code: UpstreamErrorCode,
    message: string,
    init: UpstreamErrorInit = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "UpstreamError";
    this.request = init.request;
    this.status = init.status;
    this.body = init.body;
    this.upstreamCode = init.upstreamCode;
    this.details = init.details ?? [];
    this.attempts = init.attempts;
  }

  toJSON() {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      request: this.request,
      status: this.status,
      upstreamCode: this.upstreamCode,
      details: this.details,
      body: this.body,
      attempts: this.attempts,
    };
  }
}

/** 401/403: the API key, client credentials, password or token were refused. */
export class UpstreamAuthenticationError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_AUTHENTICATION", message, init);
    this.name = "UpstreamAuthenticationError";
  }
}

/** Other 4xx: the upstream refused the request or its records, with its reasons in `details`/`body`. */
export class UpstreamRejectedError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_REJECTED", message, init);
    this.name = "UpstreamRejectedError";
  }
}

/** Network errors, timeouts, 408, 429 and 5xx, still failing after the last attempt. */
export class UpstreamUnavailableError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_UNAVAILABLE", message, init);
    this.name = "UpstreamUnavailableError";
  }
}

/** The upload step could not be made: an address we refuse to send to, or records that could not be sent. */
export class UpstreamUploadError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_UPLOAD", message, init);
    this.name = "UpstreamUploadError";
  }
}

/**
 * The records an upload streams could not be read (the caller's source failed, not the network): the upload was
 * aborted, and another address would read the same source, so the client does not retry it.
 */
export class UploadSourceError extends UpstreamUploadError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super(message, init);
    this.name = "UploadSourceError";
  }
}

/**
 * An upload address we will not send records to: outside the environment's upload hosts, not https, or one that
 * answered with a redirect. Asking again yields another address of the same kind, so it is never retried.
 */
export class UpstreamUploadAddressError extends UpstreamUploadError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super(message, init);
    this.name = "UpstreamUploadAddressError";
  }
}

/** A 2xx with a body we cannot use, or a redirect (we follow none). */
export class UpstreamInvalidResponseError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_INVALID_RESPONSE", message, init);
    this.name = "UpstreamInvalidResponseError";
  }
}

/** The caller's signal aborted the operation (e.g. a person cancelled the sync session). */
export class UpstreamCancelledError extends UpstreamError {
  constructor(message: string, init: UpstreamErrorInit = {}) {
    super("UPSTREAM_CANCELLED", message, init);
    this.name = "UpstreamCancelledError";
  }
}
