/** Tunables of the sync engine, from the environment (docs/sync.md). */
export interface SyncConfig {
  /** Contacts per import (each chunk is its own POST + upload). */
  contactChunkSize: number;
  /** Attempts of a step by the engine, after the client's own retries of each request. */
  stepAttempts: number;
  /** Ceiling of the first engine backoff between step attempts; doubles each time. */
  stepBackoffMs: number;
  /** How long a worker's claim on a session lasts without renewal. */
  leaseSeconds: number;
  /** The safety valve (lib/sync/removal-guard.ts): a step may unsubscribe or remove up to this share of what the upstream holds… */
  removalThresholdPercent: number;
  /** …or fewer than this many records, before a person must confirm. */
  removalThresholdMinimum: number;
  /** Openings imports (one per service) in flight at once; at most `maxOpeningsConcurrency`. */
  openingsConcurrency: number;
}

/**
 * Each openings import in flight holds a database connection while its records stream (the worker's pool has 10):
 * the ceiling leaves connections for the lease renewal and the fenced writes.
 */
export const maxOpeningsConcurrency = 8;

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
    removalThresholdPercent: Math.min(100, positiveInteger("SYNC_REMOVAL_THRESHOLD_PERCENT", 10)),
    removalThresholdMinimum: Math.max(1, positiveInteger("SYNC_REMOVAL_THRESHOLD_MIN", 50)),
    openingsConcurrency: Math.min(maxOpeningsConcurrency, Math.max(1, positiveInteger("SYNC_OPENINGS_CONCURRENCY", 4))),
  };
}
