import type { FleetMatrixQuery, FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import type { SessionHistoryQuery } from "@/lib/sync/session-inputs";
import type { PreviewRecordsQuery } from "./preview-queries";

/** Every React Query key of the dashboard, by resource: mutations invalidate a resource by its prefix. */
export const queryKeys = {
  locations: ["locations"] as const,
  location: (locationId: string) => ["locations", locationId] as const,
  locationLive: (locationId: string) => ["locations", locationId, "live"] as const,
  locationSessions: (locationId: string, query: Partial<SessionHistoryQuery>) => ["locations", locationId, "sessions", query] as const,
  previewRuns: (locationId: string) => ["locations", locationId, "preview-runs"] as const,
  previewRecords: (locationId: string, runId: string, query: PreviewRecordsQuery) =>
    ["locations", locationId, "preview-records", runId, query] as const,
  previewRecord: (locationId: string, type: string, seq: number) => ["locations", locationId, "preview-record", type, seq] as const,
  sessions: ["sessions"] as const,
  session: (sessionId: string) => ["sessions", sessionId] as const,
  sessionAttempt: (sessionId: string, attemptId: number) => ["sessions", sessionId, "attempts", attemptId] as const,
  fleet: ["fleet"] as const,
  sandboxFaults: ["sandbox", "faults"] as const,
  fleetSessions: (query: Partial<FleetSessionQuery>) => ["fleet", "sessions", query] as const,
  fleetMatrix: (query: Partial<FleetMatrixQuery>) => ["fleet", "matrix", query] as const,
};
