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
    // Behind a proxy the request's own origin may be internal; APP_ORIGIN is the public one.
    uploadBaseUrl: process.env.APP_ORIGIN ? `${process.env.APP_ORIGIN.replace(/\/$/, "")}/sandbox/uploads` : undefined,
    faultsEnabled: areFaultsEnabled(),
  };
}
