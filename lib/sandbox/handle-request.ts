import type { ApiCall } from "./api";
import { resolveEnvironment } from "./auth";
import type { SandboxContext } from "./context";
import { sandboxEndpoints, sandboxFaultTargets } from "./endpoints";
import { errorResponse, jsonResponse, readLimitedJson, SandboxError } from "./errors";
import { clearFaults, hasArmedFaults, injectFault, InjectFaultInput, takeFault, type FaultMode } from "./faults";
import { logSandboxRequest } from "./request-log";
import { shapedErrorResponse, type SandboxErrorShape } from "./response-shapes";
import { claimUpload, findUploadEnvironment, receiveUpload } from "./upload";
import { describeErrorForLog } from "@/lib/logging/safe-error";

export type { SandboxContext } from "./context";

interface Outcome {
  response: Response;
  error?: SandboxError;
  locationId?: string;
}

/**
 * The whole simulator behind one web-standard function: the Next route handlers and the
 * standalone Node server both forward every request here.
 */
export async function handleSandboxRequest(request: Request, context: SandboxContext): Promise<Response> {
  const path = new URL(request.url).pathname;
  const serve = context.serve ?? "all";
  if (context.controlPrefix && path.startsWith(`${context.controlPrefix}/`)) {
    return settle(() => handleControl(request, context, path.slice(context.controlPrefix!.length))).then((outcome) => outcome.response);
  }
  if (serve !== "api" && path.startsWith(`${context.uploadPrefix}/`)) {
    const token = path.slice(context.uploadPrefix.length + 1);
    const note: { locationId?: string } = {};
    const outcome = await settle(() => handleUpload(request, context, token, note), context.errorShape);
    await logSandboxRequest(context.db, {
      method: request.method,
      path: `${context.uploadPrefix}/<upload address>`,
      endpoint: "upload",
      locationId: note.locationId,
      outcome,
    });
    return outcome.response;
  }
  const apiRoot = `${context.apiPrefix}/v1`;
  if (serve !== "upload" && path.startsWith(`${apiRoot}/`)) {
    const rest = path.slice(apiRoot.length);
    const endpoint = sandboxEndpoints.find((candidate) => candidate.pattern.test(rest) && candidate.method === request.method);
    if (!endpoint) {
      const other = sandboxEndpoints.some((candidate) => candidate.pattern.test(rest));
      return shapedErrorResponse(
        context.errorShape ?? "documented",
        other
          ? new SandboxError(405, "method_not_allowed", `${request.method} is not allowed here.`)
          : new SandboxError(404, "not_found", "No endpoint has this path."),
      );
    }
    const params = (endpoint.pattern.exec(rest)?.groups ?? {}) as Record<string, string>;
    const note: ApiCall["note"] = {};
    const outcome = await settle(async () => {
      const fault = await takeFaultFor(context, endpoint.name);
      if (fault) {
        const faulted = await applyFault(fault, request, false);
        if (faulted) return faulted;
      }
      const environment = await resolveEnvironment(context.db, request);
      return endpoint.handle({ request, context, environment, params, note });
    }, context.errorShape);
    // The pathname never holds a secret: access_token travels in the query string, which is dropped.
    await logSandboxRequest(context.db, {
      method: request.method,
      path,
      endpoint: endpoint.name,
      locationId: note.locationId ?? params.location_id,
      outcome,
    });
    return outcome.response;
  }
  return errorResponse(new SandboxError(404, "not_found", "No endpoint has this path."));
}

async function settle(run: () => Promise<Response>, shape: SandboxErrorShape = "documented"): Promise<Outcome> {
  try {
    return { response: await run() };
  } catch (error) {
    if (error instanceof SandboxError) return { response: shapedErrorResponse(shape, error), error };
    // Class and code only: a failed query's parameters could hold record data.
    console.error(`sandbox: unexpected error: ${describeErrorForLog(error)}`);
    const internal = new SandboxError(500, "internal_error", "The sandbox failed to handle the request.");
    return { response: shapedErrorResponse(shape, internal), error: internal };
  }
}

async function handleUpload(request: Request, context: SandboxContext, token: string, note: { locationId?: string }): Promise<Response> {
  if (request.method !== "PUT") throw new SandboxError(405, "method_not_allowed", "Upload addresses accept PUT only.");
  if (!token || token.includes("/")) throw new SandboxError(404, "unknown_upload_address", "No upload address matches this URL.");
  const url = new URL(request.url);
  // The upload address is another host: credentials sent there would leak them.
  const leaked = ["x-api-key", "authorization"].filter((header) => request.headers.has(header));
  if (url.searchParams.has("access_token")) leaked.push("access_token");
  if (leaked.length) {
    throw new SandboxError(
      403,
      "credentials_on_upload",
      "Upload addresses take no API key or access token.",
      leaked.map((field) => ({ field, reason: "credentials must not be sent to an upload address" })),
    );
  }
  const contentType = request.headers.get("content-type");
  if (contentType && !/^application\/json\b/i.test(contentType)) {
    throw new SandboxError(415, "unsupported_media_type", "The upload body must be application/json.");
  }
  // Faults come before the address is claimed, so a client may retry the same address after one.
  const fault = await takeFaultFor(context, "upload");
  if (fault) {
    const faulted = await applyFault(fault, request, true);
    if (faulted) return faulted;
  }
  const upload = await claimUpload(context, token);
  note.locationId = upload.locationId;
  return receiveUpload(request, context, upload, await findUploadEnvironment(context, upload), { miscount: fault?.kind === "miscount" });
}

async function takeFaultFor(context: SandboxContext, target: string): Promise<FaultMode | undefined> {
  if (!context.faultsEnabled) return undefined;
  if (!(await hasArmedFaults(context.db))) return undefined;
  return takeFault(context.db, target);
}

/** The faulty answer, or undefined when the fault only delays the normal one. */
async function applyFault(fault: FaultMode, request: Request, isUpload: boolean): Promise<Response | undefined> {
  switch (fault.kind) {
    case "status":
      throw new SandboxError(fault.status, "injected_fault", `Injected fault: ${fault.status}.`);
    case "rate-limit":
      throw new SandboxError(429, "rate_limited", "Too many requests.", [], { "retry-after": String(fault.retryAfterSeconds) });
    case "delay":
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return undefined;
    case "miscount":
      // Only an upload's answer states a count (receiveUpload); elsewhere the answer is the normal one.
      return undefined;
    case "reset": {
      if (isUpload && request.body) {
        // Read part of the upload before breaking the connection, as a dropped link would.
        const reader = request.body.getReader();
        await reader.read().catch(() => undefined);
      }
      return brokenResponse();
    }
  }
}

/** Sends the status line and part of a body, then fails the stream: the server drops the connection. */
function brokenResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"partial":'));
    },
    pull(controller) {
      controller.error(new Error("sandbox: injected connection reset"));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json", "x-sandbox-fault": "reset" } });
}

async function handleControl(request: Request, context: SandboxContext, path: string): Promise<Response> {
  await resolveEnvironment(context.db, request);
  if (path === "/stats" && request.method === "GET") {
    return jsonResponse(200, context.stats ?? { uploads: 0, records: 0, bytes: 0 });
  }
  if (path === "/faults" && context.faultsEnabled) {
    if (request.method === "POST") {
      const body = await readLimitedJson(request, 64 * 1024);
      if (body === "") throw new SandboxError(400, "invalid_json", "The request body is not valid JSON.");
      const parsed = InjectFaultInput.safeParse(body);
      if (!parsed.success) {
        throw new SandboxError(
          422,
          "invalid_request",
          "The fault is not valid.",
          parsed.error.issues.map((issue) => ({ field: issue.path.join("."), reason: issue.message })),
        );
      }
      if (!sandboxFaultTargets.includes(parsed.data.target)) {
        throw new SandboxError(422, "invalid_request", "The fault is not valid.", [
          { field: "target", reason: `must be one of ${sandboxFaultTargets.join(", ")}` },
        ]);
      }
      return jsonResponse(201, await injectFault(context.db, parsed.data));
    }
    if (request.method === "DELETE") {
      const target = new URL(request.url).searchParams.get("target") ?? undefined;
      await clearFaults(context.db, { target });
      return jsonResponse(200, { cleared: true });
    }
  }
  throw new SandboxError(404, "not_found", "No endpoint has this path.");
}
