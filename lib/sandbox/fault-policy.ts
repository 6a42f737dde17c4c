import { isProductionMode } from "@/lib/runtime/mode";

// Production mode is the runtime's notion (NODE_ENV=production on an operator's DATABASE_URL).
export { isProductionMode };

/** Fault injection is a test tool: off in production mode whatever else is asked. */
export function areFaultsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (isProductionMode(env)) return false;
  return env.SANDBOX_FAULTS === "on" || env.NODE_ENV !== "production";
}
