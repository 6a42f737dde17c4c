import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers, locations } from "@/db/schema";
import { can, locationScopeOf, type Actor } from "@/lib/auth/permissions";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { DomainError } from "@/lib/errors/domain-error";
import { nowOf, type OperationContext } from "@/lib/operations/context";
import { latestSessionsOf, type LatestSession } from "./latest-sessions";
import { decodeLocationCursor, encodeLocationCursor, type LocationCursor } from "./location-cursor";
import type { ConnectionStatusFilter, LocationListQuery, LocationStatusFilter } from "./location-inputs";
import { lastScheduledDaysOf, nextScheduledSync } from "./next-sync";

export interface LocationListItem {
  id: string;
  name: string;
  /** Operator details ("location.details.view"): absent for a business owner. */
  environment?: EnvironmentName;
  upstreamLocationId?: string | null;
  connected: boolean;
  connectionStatus: ConnectionStatusFilter;
  /** Archived locations show only under the "Archived" filter. */
  archived: boolean;
  connectedAt: Date | null;
  attentionReason: string | null;
  lastCheckOk: boolean | null;
  /** The newest session: its status, when it ended (or started, while it runs), and the records it did not send. */
  lastSession: LatestSession | null;
  nextSyncAt: Date;
  /** Set while the daily schedule is paused: then there is no next run. Who paused it and why are operator details. */
  schedulePaused: { at: Date; byEmail?: string | null; reason?: string | null } | null;
  syncTime: string;
  /** The times above are the location's: an owner reads them in it too. */
  timeZone: string;
}

export interface LocationListPage {
  items: LocationListItem[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Pass as `before` for the previous page; null on the first page. */
  previousCursor: string | null;
  /** All locations matching the search and filters, across pages. */
  total: number;
}

/** Who is looking: the membership rule (lib/auth/permissions) decides which locations they see. */
export type LocationViewer = Actor;

type Scope = ReturnType<typeof locationScopeOf>;

const sortName = sql<string>`lower(${locations.name})`;

const statusConditions: Record<Exclude<LocationStatusFilter, "archived">, SQL> = {
  connected: and(isNotNull(locations.locationTokenEncrypted), isNull(locations.attentionReason))!,
  not_connected: isNull(locations.locationTokenEncrypted),
  needs_attention: isNotNull(locations.attentionReason),
};

function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, "\\$&");
}

function filterConditions(scope: Scope, query: LocationListQuery, operator: boolean): SQL[] {
  const conditions: SQL[] = [];
  if (scope !== "all") conditions.push(eq(locationMembers.userId, scope.memberId));
  // Only who may see the operator details finds a location by them.
  const byName = ilike(locations.name, `%${escapeLike(query.q ?? "")}%`);
  if (query.q) conditions.push(operator ? or(byName, eq(locations.upstreamLocationId, query.q))! : byName);
  if (query.status === "archived") conditions.push(isNotNull(locations.archivedAt));
  else {
    conditions.push(isNull(locations.archivedAt));
    if (query.status) conditions.push(statusConditions[query.status]);
  }
  if (query.environment && operator) conditions.push(eq(locations.environment, query.environment));
  return conditions;
}

function connectionStatusOf(row: { connected: boolean; attentionReason: string | null }): ConnectionStatusFilter {
  if (row.attentionReason !== null) return "needs_attention";
  return row.connected ? "connected" : "not_connected";
}

/**
 * One page of the locations the viewer may see, ordered by name, with keyset
 * cursors both ways (deep pages cost what the first does: locations_name_idx).
 */
export async function listLocations(ctx: OperationContext<LocationViewer>, query: LocationListQuery): Promise<LocationListPage> {
  const { db, actor: viewer } = ctx;
  const now = nowOf(ctx);
  const scope = locationScopeOf(viewer, "location.view");
  if (query.after && query.before)
    throw new DomainError("INVALID", "Give either after or before, not both.", [{ field: "before", reason: "cannot be combined with after" }]);
  const after = query.after ? decodeLocationCursor(query.after, "after") : null;
  const before = query.before ? decodeLocationCursor(query.before, "before") : null;
  const operator = can(viewer, "location.details.view");
  const filters = filterConditions(scope, query, operator);
  const keyset = after
    ? sql`(${sortName}, ${locations.id}) > (${after.sortName}, ${after.id}::uuid)`
    : before
      ? sql`(${sortName}, ${locations.id}) < (${before.sortName}, ${before.id}::uuid)`
      : undefined;

  // Never the sealed token itself: only whether there is one.
  const columns = {
    id: locations.id,
    name: locations.name,
    sortName,
    environment: locations.environment,
    upstreamLocationId: locations.upstreamLocationId,
    connected: sql<boolean>`${locations.locationTokenEncrypted} is not null`,
    archived: sql<boolean>`${locations.archivedAt} is not null`,
    connectedAt: locations.connectedAt,
    attentionReason: locations.attentionReason,
    lastCheckOk: locations.lastCheckOk,
    syncTime: locations.syncTime,
    timeZone: locations.timeZone,
    schedulePausedAt: locations.schedulePausedAt,
    schedulePausedByEmail: locations.schedulePausedByEmail,
    schedulePauseReason: locations.schedulePauseReason,
  };
  const base = db.select(columns).from(locations);
  const scoped = scope === "all" ? base : base.innerJoin(locationMembers, eq(locationMembers.locationId, locations.id));
  const rows = await scoped
    .where(and(...filters, keyset))
    .orderBy(...(before ? [desc(sortName), desc(locations.id)] : [asc(sortName), asc(locations.id)]))
    .limit(query.limit + 1);

  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (before) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const cursorOf = (row: LocationCursor) => encodeLocationCursor({ sortName: row.sortName, id: row.id });

  const ids = page.map((row) => row.id);
  const [lastSessions, scheduledDays] = await Promise.all([latestSessionsOf(db, ids), lastScheduledDaysOf(db, ids)]);
  return {
    items: page.map(({ sortName: _sortName, schedulePausedAt, schedulePausedByEmail, schedulePauseReason, ...row }) => {
      const { environment, upstreamLocationId, ...shown } = row;
      return {
        ...shown,
        ...(operator && { environment, upstreamLocationId }),
        schedulePaused: schedulePausedAt
          ? { at: schedulePausedAt, ...(operator && { byEmail: schedulePausedByEmail, reason: schedulePauseReason }) }
          : null,
        connectionStatus: connectionStatusOf(row),
        lastSession: lastSessions.get(row.id) ?? null,
        nextSyncAt: nextScheduledSync(row.syncTime, row.timeZone, now, scheduledDays.get(row.id) ?? null),
      };
    }),
    // Coming back from a later page (before), a next page exists: the one we came from.
    nextCursor: last && (before || hasMore) ? cursorOf(last) : null,
    // Going forward (after), a previous page exists: the one we came from.
    previousCursor: first && (after || (before && hasMore)) ? cursorOf(first) : null,
    total: await countLocations(db, scope, filters),
  };
}

/** The newest session of each location on the page: one index probe per location (sync_sessions_location_idx). */
async function countLocations(db: DatabaseOrTransaction, scope: Scope, filters: SQL[]): Promise<number> {
  const base = db.select({ total: count() }).from(locations);
  const scoped = scope === "all" ? base : base.innerJoin(locationMembers, eq(locationMembers.locationId, locations.id));
  const [result] = await scoped.where(and(...filters));
  return result?.total ?? 0;
}
