import { getConfig, type Config } from "@/lib/config/config";
import { isProductionMode } from "@/lib/runtime/mode";

// Production mode is the runtime's notion (NODE_ENV=production on an operator's DATABASE_URL).
export { isProductionMode };

/** Fault injection is a test tool: off in production mode whatever else is asked. */
export function areFaultsEnabled(config: Config = getConfig()): boolean {
  if (isProductionMode(config)) return false;
  return config.SANDBOX_FAULTS === "on" || config.NODE_ENV !== "production";
}
