import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { serializeDates } from "./serialize-dates";
import type { SessionRow } from "./session-view";

/** A session as the API shows it when it was just requested: never the lease, the fencing token or the preview run. */
export const sessionSummaryColumns = {
  id: syncSessions.id,
  locationId: syncSessions.locationId,
  environment: syncSessions.environment,
  trigger: syncSessions.trigger,
  requestedByEmail: syncSessions.requestedByEmail,
  full: syncSessions.full,
  optionalSteps: syncSessions.optionalSteps,
  status: syncSessions.status,
  createdAt: syncSessions.createdAt,
};

/** The columns of SessionRow (lib/sync/session-view.ts): the session and its location's name, time zone and attention reason. */
const sessionRowColumns = {
  ...sessionSummaryColumns,
  upstreamOpen: syncSessions.upstreamOpen,
  currentStep: syncSessions.currentStep,
  resumesSessionId: syncSessions.resumesSessionId,
  scheduledFor: syncSessions.scheduledFor,
  error: syncSessions.error,
  removalStop: syncSessions.removalStop,
  confirmedRemovals: syncSessions.confirmedRemovals,
  replay: syncSessions.replay,
  quiet: syncSessions.quiet,
  cancelRequestedAt: syncSessions.cancelRequestedAt,
  startedAt: syncSessions.startedAt,
  finishedAt: syncSessions.finishedAt,
  locationName: locations.name,
  locationTimeZone: locations.timeZone,
  locationAttentionReason: locations.attentionReason,
};

/** Sessions with their location, to be narrowed (where, order, membership join) by the caller and mapped with toSessionRow. */
export function selectSessionRows(db: DatabaseOrTransaction) {
  return db.select(sessionRowColumns).from(syncSessions).innerJoin(locations, eq(locations.id, syncSessions.locationId));
}

type SelectedSession = Awaited<ReturnType<ReturnType<typeof selectSessionRows>["execute"]>>[number];

/** The one mapping of a selected session to its JSON row. */
export function toSessionRow(row: SelectedSession): SessionRow {
  return serializeDates(row);
}
