/** Tunables of the sync engine, from the environment (README "Sync sessions"). */
export interface SyncConfig {
  /** Contacts per import (each chunk is its own POST + upload). */
  contactChunkSize: number;
  /** Attempts of a step by the engine, after the client's own retries of each request. */
  stepAttempts: number;
  /** Ceiling of the first engine backoff between step attempts; doubles each time. */
  stepBackoffMs: number;
  /** How long a worker's claim on a session lasts without renewal. */
  leaseSeconds: number;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, not "${raw}"`);
  return value;
}

export function syncConfigFromEnvironment(): SyncConfig {
  return {
    contactChunkSize: Math.max(1, positiveInteger("SYNC_CONTACT_CHUNK_SIZE", 5000)),
    stepAttempts: Math.max(1, positiveInteger("SYNC_STEP_ATTEMPTS", 3)),
    stepBackoffMs: positiveInteger("SYNC_STEP_BACKOFF_MS", 5000),
    leaseSeconds: Math.max(1, positiveInteger("SYNC_LEASE_SECONDS", 60)),
  };
}
