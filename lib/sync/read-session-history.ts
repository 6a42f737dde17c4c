import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor } from "@/lib/auth/permissions";
import { syncSessions, syncSteps, type SessionReplay } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import { getLocationRow } from "@/lib/locations/get-location";
import type { OperationContext } from "@/lib/operations/context";
import { serializeDates } from "./serialize-dates";
import { decodeSessionCursor, encodeSessionCursor } from "./session-cursor";
import type { SessionHistoryQuery } from "./session-inputs";

export interface StepChip {
  name: string;
  status: string;
  /** Records the step left out: invalid (failed the mapping's checks) and excluded by rule. */
  recordsInvalid: number;
  recordsExcluded: number;
}

export interface SessionHistoryItem {
  id: string;
  trigger: string;
  requestedByEmail: string | null;
  environment: string;
  status: string;
  full: boolean;
  /** A scoped replay: what it sent again and why. */
  replay: SessionReplay | null;
  /** The upstream session is still open (failed or cancelled part-way): campaigns wait. */
  upstreamOpen: boolean;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  steps: StepChip[];
}

export interface SessionHistoryPage {
  items: SessionHistoryItem[];
  /** Pass as `after` for older sessions; null on the oldest page. */
  olderCursor: string | null;
  /** Pass as `before` for newer sessions; null on the newest page. */
  newerCursor: string | null;
}

// UTC with microseconds: the exact created_at, so that a page boundary never skips or repeats a row.
const cursorKey = sql<string>`to_char(${syncSessions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a location's sessions, newest first, with keyset cursors both ways: a deep page costs
 * what the first does (sync_sessions_location_idx on location_id, created_at desc, id). An unknown location, and for owners another's, is
 * "Location not found.".
 */
export async function listSessionHistory(
  ctx: OperationContext<Actor>,
  { locationId, ...query }: SessionHistoryQuery & { locationId: string },
): Promise<SessionHistoryPage> {
  const { db, actor: viewer } = ctx;
  await assertCanAtLocation(db, viewer, "session.view", locationId);
  if (query.after && query.before)
    throw new DomainError("INVALID", "Give either after or before, not both.", [{ field: "before", reason: "cannot be combined with after" }]);
  const after = query.after ? decodeSessionCursor(query.after, "after") : null;
  const before = query.before ? decodeSessionCursor(query.before, "before") : null;
  const keyset = after
    ? sql`(${syncSessions.createdAt}, ${syncSessions.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : before
      ? sql`(${syncSessions.createdAt}, ${syncSessions.id}) > (${before.createdAt}::timestamptz, ${before.id}::uuid)`
      : undefined;
  const rows = await db
    .select({
      id: syncSessions.id,
      trigger: syncSessions.trigger,
      requestedByEmail: syncSessions.requestedByEmail,
      environment: syncSessions.environment,
      status: syncSessions.status,
      full: syncSessions.full,
      replay: syncSessions.replay,
      upstreamOpen: syncSessions.upstreamOpen,
      error: syncSessions.error,
      createdAt: syncSessions.createdAt,
      startedAt: syncSessions.startedAt,
      finishedAt: syncSessions.finishedAt,
      cursorKey,
    })
    .from(syncSessions)
    .where(
      and(
        eq(syncSessions.locationId, locationId),
        query.status ? eq(syncSessions.status, query.status) : undefined,
        query.trigger ? eq(syncSessions.trigger, query.trigger) : undefined,
        keyset,
      ),
    )
    .orderBy(...(before ? [asc(syncSessions.createdAt), asc(syncSessions.id)] : [desc(syncSessions.createdAt), desc(syncSessions.id)]))
    .limit(query.limit + 1);

  // Sessions prove the location exists; without any, it may not (staff reach here for any id: lib/auth/location-access).
  if (rows.length === 0) await getLocationRow(db, locationId);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (before) page.reverse();
  const stepsBySession = await stepChipsOf(
    db,
    page.map((row) => row.id),
  );
  const first = page[0];
  const last = page.at(-1);
  return {
    items: page.map(({ cursorKey: _cursorKey, ...row }) => ({ ...serializeDates(row), steps: stepsBySession.get(row.id) ?? [] })),
    // Coming back from an older page (before), an older page exists: the one we came from.
    olderCursor: last && (before || hasMore) ? encodeSessionCursor({ createdAt: last.cursorKey, id: last.id }) : null,
    newerCursor: first && (after || (before && hasMore)) ? encodeSessionCursor({ createdAt: first.cursorKey, id: first.id }) : null,
  };
}

async function stepChipsOf(db: DatabaseOrTransaction, sessionIds: string[]): Promise<Map<string, StepChip[]>> {
  const chips = new Map<string, StepChip[]>();
  if (sessionIds.length === 0) return chips;
  const steps = await db
    .select({
      sessionId: syncSteps.sessionId,
      name: syncSteps.name,
      status: syncSteps.status,
      recordsInvalid: syncSteps.recordsInvalid,
      recordsExcluded: syncSteps.recordsExcluded,
    })
    .from(syncSteps)
    .where(inArray(syncSteps.sessionId, sessionIds))
    .orderBy(asc(syncSteps.position));
  for (const step of steps) {
    const list = chips.get(step.sessionId) ?? [];
    list.push({ name: step.name, status: step.status, recordsInvalid: step.recordsInvalid, recordsExcluded: step.recordsExcluded });
    chips.set(step.sessionId, list);
  }
  return chips;
}
