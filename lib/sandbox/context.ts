import type { Database } from "@/db/client";
import type { SandboxErrorShape } from "./response-shapes";

/** Counts of count-only mode (benchmarks): what arrived at the upload addresses. */
export interface SandboxStats {
  uploads: number;
  records: number;
  bytes: number;
}

export interface SandboxContext {
  db: Database;
  /** Which part this listener serves: the standalone server runs API and uploads on two ports. */
  serve?: "all" | "api" | "upload";
  /** Path before `/v1`: "/sandbox/api" inside the app, "" standalone. */
  apiPrefix: string;
  /** Path before the one-time token: "/sandbox/uploads" inside the app, "/uploads" standalone. */
  uploadPrefix: string;
  /** Test control endpoints (faults, stats); absent = none. */
  controlPrefix?: string;
  /** Absolute base of put_data_url; defaults to the request's origin + uploadPrefix. */
  uploadBaseUrl?: string;
  countOnly?: boolean;
  faultsEnabled?: boolean;
  /** How API and upload errors are answered (lib/sandbox/response-shapes.ts); default `documented`. */
  errorShape?: SandboxErrorShape;
  uploadTtlSeconds?: number;
  stats?: SandboxStats;
  now?: () => Date;
}

export const defaultUploadTtlSeconds = 3600;
export const openingsHorizonHours = 72;
export const maxReportedDetails = 50;
