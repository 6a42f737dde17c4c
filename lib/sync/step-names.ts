export const syncStepNames = [
  "open",
  "calendars",
  "service_categories",
  "services",
  "contact_details",
  "vehicles",
  "appointments",
  "openings",
  "close",
] as const;
export type SyncStepName = (typeof syncStepNames)[number];

/** Spec 4.4 item 6: steps 2 to 4 are optional, chosen per session (all by default). */
export const optionalStepNames = ["calendars", "service_categories", "services"] as const;
export type OptionalStepName = (typeof optionalStepNames)[number];

/** The steps a scoped replay can send again (everything between open and close). */
export const replayStepNames = ["calendars", "service_categories", "services", "contact_details", "vehicles", "appointments", "openings"] as const;
export type ReplayStepName = (typeof replayStepNames)[number];
