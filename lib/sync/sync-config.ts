import { getConfig, type Config } from "@/lib/config/config";

/** Tunables of the sync engine, from the environment (docs/sync.md; rules and defaults in lib/config). */
export interface SyncConfig {
  /** Contacts per import (each chunk is its own POST + upload). */
  contactChunkSize: number;
  /** Attempts of a step by the engine, after the client's own retries of each request. */
  stepAttempts: number;
  /** Ceiling of the first engine backoff between step attempts; doubles each time. */
  stepBackoffMs: number;
  /** Ceiling of the first backoff between the client's retries of one request; doubles each time. */
  requestBackoffMs: number;
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

export function syncConfigFromEnvironment(config: Config = getConfig()): SyncConfig {
  return {
    contactChunkSize: config.SYNC_CONTACT_CHUNK_SIZE,
    stepAttempts: config.SYNC_STEP_ATTEMPTS,
    stepBackoffMs: config.SYNC_STEP_BACKOFF_MS,
    requestBackoffMs: config.SYNC_REQUEST_BACKOFF_MS,
    leaseSeconds: config.SYNC_LEASE_SECONDS,
    removalThresholdPercent: config.SYNC_REMOVAL_THRESHOLD_PERCENT,
    removalThresholdMinimum: config.SYNC_REMOVAL_THRESHOLD_MIN,
    openingsConcurrency: Math.min(maxOpeningsConcurrency, config.SYNC_OPENINGS_CONCURRENCY),
  };
}
