import { z } from "zod";
import { sessionStatuses, sessionTriggers } from "./session-inputs";
import { replayStepNames, syncStepNames } from "./step-names";

// The one shape of a sync session as JSON: GET /api/sessions/[id], the session page (and its "Copy as JSON"), and
// `npm run cli -- session <id> --json` all return it (lib/sync/read-session-view.ts builds it). Times are ISO strings.

const isoTime = z.string();
const stepStatuses = ["pending", "running", "succeeded", "failed", "skipped", "cancelled"] as const;
const removalSteps = ["calendars", "service_categories", "services", "contact_details", "appointments"] as const;

const RemovalCheck = z.object({
  step: z.enum(removalSteps),
  removals: z.number(),
  held: z.number(),
  threshold: z.number(),
  examples: z.array(z.string()),
});

/** A scoped replay: the steps sent again, the appointments' dates (both included), and why. */
export const SessionReplayView = z.object({
  steps: z.array(z.enum(replayStepNames)),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.string(),
});

/** One row of sync_sessions with its location's name, time zone and attention reason: never the lease or fencing token. */
export const SessionRow = z.object({
  id: z.uuid(),
  locationId: z.uuid(),
  environment: z.enum(["staging", "production"]),
  trigger: z.enum(sessionTriggers),
  requestedByEmail: z.string().nullable(),
  full: z.boolean(),
  optionalSteps: z.array(z.string()),
  status: z.enum(sessionStatuses),
  createdAt: isoTime,
  upstreamOpen: z.boolean(),
  currentStep: z.enum(syncStepNames).nullable(),
  resumesSessionId: z.uuid().nullable(),
  scheduledFor: z.string().nullable(),
  error: z.string().nullable(),
  removalStop: z.object({ checks: z.array(RemovalCheck) }).nullable(),
  confirmedRemovals: z
    .object({ limits: z.partialRecord(z.enum(removalSteps), z.number()), byEmail: z.string().nullable(), reason: z.string() })
    .nullable(),
  replay: SessionReplayView.nullable(),
  /** Nothing had changed in the source: only what time moves was read and sent (lib/sync/quiet). */
  quiet: z.boolean(),
  cancelRequestedAt: isoTime.nullable(),
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  locationName: z.string(),
  locationTimeZone: z.string(),
  locationAttentionReason: z.string().nullable(),
});
export type SessionRow = z.infer<typeof SessionRow>;

/** One HTTP exchange with the upstream (path already redacted). */
export const AttemptView = z.object({
  id: z.number(),
  stepId: z.uuid().nullable(),
  itemId: z.uuid().nullable(),
  operation: z.string(),
  attempt: z.number(),
  method: z.string(),
  path: z.string(),
  status: z.number().nullable(),
  durationMs: z.number(),
  retryDelayMs: z.number().nullable(),
  error: z.string().nullable(),
  records: z.number().nullable(),
  bytes: z.number().nullable(),
  /** An upload sent whole: the SHA-256 of its body as sent. */
  bodySha256: z.string().nullable(),
  startedAt: isoTime,
});
export type AttemptView = z.infer<typeof AttemptView>;

/** An attempt's exchange as recorded (redacted, bodies truncated; the byte counts are the full sizes). */
export const recordedExchangeFields = {
  requestHeaders: z.record(z.string(), z.string()).nullable(),
  /** Null for an upload: its records are not kept. */
  requestBody: z.string().nullable(),
  requestBodyBytes: z.number().nullable(),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  responseBody: z.string().nullable(),
  responseBodyBytes: z.number().nullable(),
};

/** The request and response of one attempt as recorded. */
export const AttemptExchangeView = z.object({
  id: z.number(),
  /** False for attempts recorded before requests and responses were kept, and for those retention reduced. */
  recorded: z.boolean(),
  /** Set when retention removed the exchange (older than this many days; lib/retention); the summary stays. */
  detailsRemovedAfterDays: z.number().nullable(),
  ...recordedExchangeFields,
});
export type AttemptExchangeView = z.infer<typeof AttemptExchangeView>;

const progress = {
  id: z.uuid(),
  status: z.enum(stepStatuses),
  attempts: z.number(),
  recordsSent: z.number(),
  bytes: z.number(),
  error: z.string().nullable(),
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
};

/**
 * One import of a step, with its HTTP attempts. `recordsLeftOut`: usable preview records it left out, checked again
 * against what the upstream holds (a catalogue step left out); its step counts them invalid.
 */
export const StepItemView = z.object({
  ...progress,
  key: z.string(),
  position: z.number(),
  recordsLeftOut: z.number(),
  httpAttempts: z.array(AttemptView),
});
export type StepItemView = z.infer<typeof StepItemView>;

/** One step in protocol order, its items, and the attempts made for the step itself. */
export const StepView = z.object({
  ...progress,
  name: z.enum(syncStepNames),
  position: z.number(),
  recordsInvalid: z.number(),
  recordsExcluded: z.number(),
  items: z.array(StepItemView),
  httpAttempts: z.array(AttemptView),
});
export type StepView = z.infer<typeof StepView>;

export const SessionView = z.object({
  session: SessionRow,
  steps: z.array(StepView),
  /** Every HTTP attempt of the session in the order made; the steps and items list theirs again where they belong. */
  attempts: z.array(AttemptView),
  /** False for owners: the HTTP attempts are for staff only ("session.attempts.view"); then every attempt list is empty. */
  includesAttempts: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;
