import { syncSessions } from "@/db/schema";

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
