import { getDatabase } from "@/db/client";
import type { SandboxContext } from "./context";
import { areFaultsEnabled } from "./fault-policy";

/** The sandbox as served by the app's own route handlers under /sandbox/…. */
export function createAppSandboxContext(): SandboxContext {
  return {
    db: getDatabase(),
    serve: "all",
    apiPrefix: "/sandbox/api",
    uploadPrefix: "/sandbox/uploads",
    controlPrefix: "/sandbox/control",
    // Default: the origin the client called (so the address is on the host it already trusts);
    // SANDBOX_UPLOAD_BASE_URL overrides it, e.g. behind a proxy.
    uploadBaseUrl: process.env.SANDBOX_UPLOAD_BASE_URL || undefined,
    faultsEnabled: areFaultsEnabled(),
  };
}
