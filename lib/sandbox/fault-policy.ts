/** Production mode: the operator runs the app with NODE_ENV=production against their own DATABASE_URL. */
export function isProductionMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production" && Boolean(env.DATABASE_URL);
}

/** Fault injection is a test tool: off in production mode whatever else is asked. */
export function areFaultsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (isProductionMode(env)) return false;
  return env.SANDBOX_FAULTS === "on" || env.NODE_ENV !== "production";
}
