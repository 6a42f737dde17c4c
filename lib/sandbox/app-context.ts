import { getDatabase } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import type { SandboxContext } from "./context";
import { isProductionMode } from "@/lib/runtime/mode";
import { areFaultsEnabled } from "./fault-policy";
import { handleSandboxRequest } from "./handle-request";

/** The sandbox as served by the app's own route handlers under /sandbox/…. */
export function createAppSandboxContext(): SandboxContext {
  return {
    db: getDatabase(),
    serve: "all",
    apiPrefix: "/sandbox/api",
    uploadPrefix: "/sandbox/uploads",
    // Default: the origin the client called (so the address is on the host it already trusts);
    // SANDBOX_UPLOAD_BASE_URL overrides it, e.g. behind a proxy.
    uploadBaseUrl: getConfig().SANDBOX_UPLOAD_BASE_URL,
    faultsEnabled: areFaultsEnabled(),
  };
}

/**
 * Serves one request with the app's built-in sandbox. In production mode the
 * simulator is off unless the operator opts in with SANDBOX_ENABLED=true: a real
 * deployment talks to the real service and exposes no simulated API.
 */
export function serveAppSandbox(request: Request): Promise<Response> {
  if (isProductionMode() && !getConfig().SANDBOX_ENABLED) {
    return Promise.resolve(Response.json({ error: { code: "not_found", message: "Not found.", details: [] } }, { status: 404 }));
  }
  return handleSandboxRequest(request, createAppSandboxContext());
}
