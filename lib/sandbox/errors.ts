import { RequestRefusal } from "@/lib/http/problem";
import { readBodyBytes } from "@/lib/http/request-body";
import { findUnstorableText, unsafeCharacterMessage } from "@/lib/validation/safe-text";

export interface SandboxErrorDetail {
  index?: number;
  field?: string;
  reason: string;
}

/** A rejection the sandbox answers as `{"error":{"code","message","details"}}`; never carries a secret. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: SandboxErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(error: SandboxError): Response {
  return jsonResponse(error.status, { error: { code: error.code, message: error.message, details: error.details } }, error.headers);
}

/**
 * A JSON request body read with a size limit (the stream stops there, whatever Content-Length
 * says) and refused when any string holds NUL or a lone surrogate, which PostgreSQL cannot store.
 * "" when the body is empty.
 */
export async function readLimitedJson(request: Request, maxBytes: number): Promise<unknown> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBodyBytes(request, maxBytes);
  } catch (error) {
    if (error instanceof RequestRefusal) throw new SandboxError(413, "body_too_large", error.message);
    throw error;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return "";
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SandboxError(400, "invalid_json", "The request body is not valid JSON.");
  }
  const unstorable = findUnstorableText(body);
  if (unstorable)
    throw new SandboxError(422, "invalid_request", "The request body is not valid.", [
      { field: unstorable.path, reason: unsafeCharacterMessage(unstorable.found) },
    ]);
  return body;
}

/** The first detail as one line, for the request log. */
export function describeError(error: SandboxError): string {
  const first = error.details[0];
  if (!first) return error.message;
  const where = [first.index === undefined ? undefined : `[${first.index}]`, first.field].filter(Boolean).join(" ");
  return `${error.message} (${where ? where + ": " : ""}${first.reason}${error.details.length > 1 ? `, +${error.details.length - 1} more` : ""})`;
}

/** Every error code the sandbox answers, with its status (documented in docs/sandbox.md). */
export const sandboxErrorCodes = {
  invalid_json: { status: 400, meaning: "the body is not valid JSON (or, for the API, not a JSON object)" },
  body_too_large: { status: 413, meaning: "a JSON request body over the limit (32 MiB for the API, 64 KiB for fault control); uploads have none" },
  not_an_array: { status: 400, meaning: "an upload body that is not a JSON array" },
  upload_interrupted: { status: 400, meaning: "the upload connection broke before the body was complete" },
  invalid_api_key: { status: 401, meaning: "x-api-key missing or unknown" },
  missing_token: { status: 401, meaning: "no access token (Bearer header or access_token query parameter)" },
  invalid_token: { status: 401, meaning: "unknown, revoked, malformed or other-environment access token" },
  wrong_token_kind: { status: 401, meaning: "a Location Access Token where a User Access Token is required" },
  invalid_credentials: { status: 401, meaning: "email or password wrong" },
  invalid_client: { status: 401, meaning: "client_id or client_secret wrong" },
  not_location_owner: { status: 403, meaning: "the token's user does not own the location" },
  token_location_mismatch: { status: 403, meaning: "a Location Access Token used for another location" },
  credentials_on_upload: { status: 403, meaning: "an API key or access token sent to an upload address" },
  not_found: { status: 404, meaning: "no endpoint has this path" },
  unknown_location: { status: 404, meaning: "no location with this id in the API key's environment" },
  unknown_upload_address: { status: 404, meaning: "no upload address matches the URL" },
  method_not_allowed: { status: 405, meaning: "wrong HTTP method for the path" },
  not_in_sync: { status: 409, meaning: "a data-sync call or upload while the location's session is not in progress" },
  upload_address_used: { status: 410, meaning: "the one-time upload address was already used" },
  upload_address_expired: { status: 410, meaning: "the upload address expired (1 hour after issue by default)" },
  unsupported_media_type: { status: 415, meaning: "an upload with a Content-Type other than application/json" },
  invalid_request: {
    status: 422,
    meaning: "the request body (not a record) breaks its schema, or holds NUL or a lone surrogate; details name the field",
  },
  invalid_records: { status: 422, meaning: "records break a rule or format; details name index, field, reason" },
  duplicate_external_id: { status: 422, meaning: "an external_id (or opening calendar+start_at) repeats in one request/upload" },
  unknown_reference: { status: 422, meaning: "a reference to an unknown calendar, category, service or contact" },
  out_of_range: { status: 422, meaning: "an appointment/opening whose local start date is outside start_date..end_date" },
  beyond_openings_horizon: { status: 422, meaning: "an opening more than 72 hours ahead" },
  multiple_services: { status: 422, meaning: "an openings request naming more than one service" },
  data_source_mismatch: { status: 422, meaning: "management_system is not the environment's Data Source Name" },
  rate_limited: { status: 429, meaning: "injected fault: rate limit, with Retry-After" },
  internal_error: { status: 500, meaning: "a bug in the sandbox" },
  injected_fault: { status: 500, meaning: "injected fault: 500, 502 or 503" },
} as const;
export type SandboxErrorCode = keyof typeof sandboxErrorCodes;
