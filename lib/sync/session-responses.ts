import { z } from "zod";
import { EnvironmentName } from "@/lib/environments/environment-inputs";
import type { SessionHistoryPage } from "./read-session-history";
import type { SessionView } from "./read-session-view";
import { sessionStatuses, sessionTriggers } from "./session-inputs";
import { syncStepNames } from "./step-names";

// One schema per response of the session routes: the server's types (read-session-view, read-session-history) must
// match them exactly (checked below at compile time), and the browser parses every answer with them (lib/queries).

const timestamp = z.string();
const stepStatus = z.enum(["pending", "running", "succeeded", "failed", "skipped", "cancelled"]);
const removalStep = z.enum(["contact_details", "appointments"]);

const AttemptView = z.object({
  id: z.number(),
  stepId: z.string().nullable(),
  itemId: z.string().nullable(),
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
  startedAt: timestamp,
});

const StepItemView = z.object({
  id: z.string(),
  key: z.string(),
  position: z.number(),
  status: stepStatus,
  recordsSent: z.number(),
  bytes: z.number(),
  attempts: z.number(),
  error: z.string().nullable(),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  httpAttempts: z.array(AttemptView),
});

const StepView = z.object({
  id: z.string(),
  name: z.enum(syncStepNames),
  position: z.number(),
  status: stepStatus,
  attempts: z.number(),
  recordsSent: z.number(),
  recordsInvalid: z.number(),
  recordsExcluded: z.number(),
  bytes: z.number(),
  error: z.string().nullable(),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  items: z.array(StepItemView),
  httpAttempts: z.array(AttemptView),
});

const RemovalCheck = z.object({ step: removalStep, removals: z.number(), held: z.number(), threshold: z.number(), examples: z.array(z.string()) });

/** GET /api/sessions/[sessionId] */
export const SessionViewResponse = z.object({
  session: z.object({
    id: z.string(),
    locationId: z.string(),
    environment: EnvironmentName,
    trigger: z.enum(sessionTriggers),
    requestedByEmail: z.string().nullable(),
    full: z.boolean(),
    optionalSteps: z.array(z.string()),
    status: z.enum(sessionStatuses),
    createdAt: timestamp,
    upstreamOpen: z.boolean(),
    currentStep: z.enum(syncStepNames).nullable(),
    resumesSessionId: z.string().nullable(),
    scheduledFor: z.string().nullable(),
    error: z.string().nullable(),
    removalStop: z.object({ checks: z.array(RemovalCheck) }).nullable(),
    confirmedRemovals: z.object({ limits: z.partialRecord(removalStep, z.number()), byEmail: z.string().nullable(), reason: z.string() }).nullable(),
    cancelRequestedAt: timestamp.nullable(),
    startedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    locationName: z.string(),
    locationTimeZone: z.string(),
    locationAttentionReason: z.string().nullable(),
  }),
  steps: z.array(StepView),
  otherAttempts: z.array(AttemptView),
  includesAttempts: z.boolean(),
});

/** GET /api/locations/[locationId]/sessions */
export const SessionHistoryResponse = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      trigger: z.string(),
      requestedByEmail: z.string().nullable(),
      environment: z.string(),
      status: z.string(),
      full: z.boolean(),
      upstreamOpen: z.boolean(),
      error: z.string().nullable(),
      createdAt: timestamp,
      startedAt: timestamp.nullable(),
      finishedAt: timestamp.nullable(),
      steps: z.array(z.object({ name: z.string(), status: z.string(), recordsInvalid: z.number(), recordsExcluded: z.number() })),
    }),
  ),
  olderCursor: z.string().nullable(),
  newerCursor: z.string().nullable(),
});

// Compile-time only: each type must be assignable to the other, so a field added, removed or retyped on either side fails the typecheck.
export function sessionShapesAgree(
  view: SessionView,
  parsedView: z.infer<typeof SessionViewResponse>,
  page: SessionHistoryPage,
  parsedPage: z.infer<typeof SessionHistoryResponse>,
): [z.infer<typeof SessionViewResponse>, SessionView, z.infer<typeof SessionHistoryResponse>, SessionHistoryPage] {
  return [view, parsedView, page, parsedPage];
}
