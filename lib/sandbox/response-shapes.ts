import { z } from "zod";
import { sandboxEnvironments } from "@/db/schema";
import { getConfig, type Config } from "@/lib/config/config";
import { errorResponse, jsonResponse, type SandboxError } from "./errors";

/**
 * How an environment answers the bodies the spec does not show (users/me, update_management_system,
 * batch_sync_*, the upload PUT, and what lies beside put_data_url), so a client is tested against each.
 */
export const SandboxResponseShape = z.enum(sandboxEnvironments.responseShape.enumValues);
export type SandboxResponseShape = z.infer<typeof SandboxResponseShape>;

export const sandboxResponseShapes = SandboxResponseShape.options;

/** A 2xx answer whose body the spec does not show, in the environment's shape; `documented` is the sandbox's own object. */
export function shapedResponse(shape: SandboxResponseShape, documented: Record<string, unknown>, status = 200): Response {
  switch (shape) {
    case "documented":
      return jsonResponse(status, documented);
    case "empty":
      return new Response(null, { status });
    case "no_content":
      return new Response(null, { status: 204 });
    case "nested":
      return jsonResponse(status, nestedBody(documented));
    case "text":
      return new Response("OK", { status, headers: { "content-type": "text/plain; charset=utf-8" } });
    case "extra":
      return jsonResponse(status, { ...documented, ...extraFields() });
  }
}

/**
 * A bulk POST's answer: `put_data_url` stays at the top level (the spec shows it there); beside it, nothing
 * (documented, empty, no_content, text: the spec shows nothing more), a nested object or unexpected fields.
 */
export function putDataUrlResponse(shape: SandboxResponseShape, putDataUrl: string): Response {
  const body = { put_data_url: putDataUrl };
  if (shape === "nested") return jsonResponse(200, { ...body, ...nestedBody({ expires_in: 3600 }) });
  if (shape === "extra") return jsonResponse(200, { ...body, ...extraFields() });
  return jsonResponse(200, body);
}

function nestedBody(documented: Record<string, unknown>): Record<string, unknown> {
  return { data: { result: documented, status: "ok" }, meta: { request_id: crypto.randomUUID(), api_version: "v1" } };
}

// Fields a client must ignore: a number where a string could be expected, null, arrays and objects.
function extraFields(): Record<string, unknown> {
  return { request_id: crypto.randomUUID(), warnings: [], deprecated: null, rate_limit: { remaining: 99, reset_at: 1_767_225_600 }, internal_id: 42 };
}

/** SANDBOX_RESPONSE_SHAPE of the built-in sandbox's demo environment; unset = documented, unknown = a start-up error (lib/config). */
export function readResponseShapeSetting(config: Config = getConfig()): SandboxResponseShape {
  return config.SANDBOX_RESPONSE_SHAPE;
}

/**
 * How the sandbox answers its errors: the spec shows no error codes, statuses or bodies, so a client is tested against a
 * service that names no cause. `documented` (default): the sandbox's `{"error":{"code",…}}`; `gateway`: an API gateway
 * in front of the service (a refused API key is its 403 `{"message":"Forbidden"}`, any other error only a message);
 * `empty`: the status alone.
 */
export const sandboxErrorShapes = ["documented", "gateway", "empty"] as const;
export type SandboxErrorShape = (typeof sandboxErrorShapes)[number];

export function shapedErrorResponse(shape: SandboxErrorShape, error: SandboxError): Response {
  switch (shape) {
    case "documented":
      return errorResponse(error);
    case "gateway":
      if (error.code === "invalid_api_key") return jsonResponse(403, { message: "Forbidden" }, error.headers);
      return jsonResponse(error.status, { message: error.message }, error.headers);
    case "empty":
      return new Response(null, { status: error.status, headers: error.headers });
  }
}
