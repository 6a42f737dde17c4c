import { z } from "zod";
import { optionalStepNames, replayStepNames } from "./step-names";
import { calendarDate } from "@/lib/validation/calendar-date";
import { safeText } from "@/lib/validation/safe-text";

// One schema per input of the session routes; the sync panel's form and the history filters use the same ones.

export const SessionId = z.object({ sessionId: z.uuid("must be a session id") });
export const SessionAttemptId = SessionId.extend({ attemptId: z.coerce.number().int().positive("must be an attempt id") });
export const SessionItemId = SessionId.extend({ itemId: z.uuid("must be an import id") });

export const sessionTriggers = ["schedule", "manual", "resume", "cli"] as const;
export const sessionStatuses = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** "Sync now" (full false) or "Full resync" (full true); optional steps omitted = all of them. */
export const StartSessionInput = z.object({
  full: z.boolean().default(false),
  optionalSteps: z
    .array(z.enum(optionalStepNames, `must be one of ${optionalStepNames.join(", ")}`))
    .max(optionalStepNames.length)
    .refine((steps) => new Set(steps).size === steps.length, "must not repeat a step")
    .optional(),
});
export type StartSessionInput = z.infer<typeof StartSessionInput>;

const localDate = calendarDate;

/**
 * A scoped replay: one or more steps sent again from the source, inside an upstream session of their own (open → the
 * steps → close), with why. A date range narrows the appointments step, and only that step.
 */
export const ReplayInput = z
  .object({
    steps: z
      .array(z.enum(replayStepNames, `must be one of ${replayStepNames.join(", ")}`))
      .min(1, "choose at least one step")
      .max(replayStepNames.length)
      .refine((steps) => new Set(steps).size === steps.length, "must not repeat a step"),
    from: localDate.optional(),
    to: localDate.optional(),
    reason: safeText({ lineBreaks: true }).trim().min(3, "say why this is sent again").max(500),
  })
  .superRefine((input, issues) => {
    const ranged = input.from !== undefined || input.to !== undefined;
    if (ranged && (input.steps.length !== 1 || input.steps[0] !== "appointments"))
      issues.addIssue({ code: "custom", path: ["from"], message: "a date range applies to the appointments step alone" });
    if (input.from && input.to && input.from > input.to) issues.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  });
export type ReplayInput = z.infer<typeof ReplayInput>;

export const SESSION_HISTORY_PAGE_SIZE = 50;

/** History filters and a keyset cursor (after = older, before = newer); empty form fields count as absent. */
export const SessionHistoryQuery = z.object({
  status: z.preprocess((value) => (value === "" ? undefined : value), z.enum(sessionStatuses).optional()),
  trigger: z.preprocess((value) => (value === "" ? undefined : value), z.enum(sessionTriggers).optional()),
  after: safeText().max(200).optional(),
  before: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(SESSION_HISTORY_PAGE_SIZE),
});
export type SessionHistoryQuery = z.infer<typeof SessionHistoryQuery>;

/** "Confirm and send" after the removal safety valve stopped a session: why the removals are right, in a person's words. */
export const ConfirmRemovalsInput = z.object({
  reason: safeText({ lineBreaks: true }).trim().min(3, "say why these removals are right").max(500),
});
export type ConfirmRemovalsInput = z.infer<typeof ConfirmRemovalsInput>;
