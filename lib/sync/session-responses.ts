import { z } from "zod";
import type { SessionHistoryPage } from "./read-session-history";
import { SessionReplayView } from "./session-view";

// The response schema of a location's session history; a session's own is SessionView (lib/sync/session-view.ts). The
// server's type must match it exactly (checked below at compile time), and the browser parses every answer with it.

const timestamp = z.string();

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
      replay: SessionReplayView.nullable(),
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
export function sessionHistoryShapesAgree(
  page: SessionHistoryPage,
  parsedPage: z.infer<typeof SessionHistoryResponse>,
): [z.infer<typeof SessionHistoryResponse>, SessionHistoryPage] {
  return [page, parsedPage];
}
