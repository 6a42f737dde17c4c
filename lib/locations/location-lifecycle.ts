import { and, eq, inArray } from "drizzle-orm";
import type { DatabaseTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import type { Action, Permissions } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { LocationRow } from "./get-location";

export const ARCHIVED_READ_ONLY = "This location is archived: its history is read-only. Restore it first.";

/** The location's row, locked against concurrent changes and session starts (their foreign key waits for it). */
export async function lockLocationRow(tx: DatabaseTransaction, locationId: string): Promise<LocationRow> {
  const [row] = await tx.select().from(locations).where(eq(locations.id, locationId)).for("update").limit(1);
  if (!row) throw new DomainError("NOT_FOUND", "Location not found.");
  return row;
}

/** Archive, delete and a move of environment wait for the session in flight: it uses the token and writes the history. */
export async function assertNoOpenSession(tx: DatabaseTransaction, locationId: string, doing: string): Promise<void> {
  const [open] = await tx
    .select({ id: syncSessions.id, status: syncSessions.status })
    .from(syncSessions)
    .where(and(eq(syncSessions.locationId, locationId), inArray(syncSessions.status, ["queued", "running"])))
    .limit(1);
  if (open)
    throw new DomainError(
      "CONFLICT",
      `A sync session is ${open.status} for this location (${open.id}): wait for it to finish or cancel it, then ${doing}.`,
    );
}

/**
 * A session that left the upstream session open keeps its upstream location "sync in progress" (no campaigns) until a
 * resume or Close upstream session ends it, both with the location's token for that upstream location: a move, another
 * upstream location ID, an archive (it deletes the token) or a delete would leave it so for good.
 */
export async function assertUpstreamSessionClosed(
  tx: DatabaseTransaction,
  location: Pick<LocationRow, "id" | "environment" | "upstreamLocationId" | "archivedAt">,
  doing: string,
): Promise<void> {
  if (!location.upstreamLocationId) return;
  const [open] = await tx
    .select({ id: syncSessions.id })
    .from(syncSessions)
    .where(
      and(
        eq(syncSessions.locationId, location.id),
        eq(syncSessions.upstreamOpen, true),
        eq(syncSessions.environment, location.environment),
        eq(syncSessions.upstreamLocationId, location.upstreamLocationId),
      ),
    )
    .limit(1);
  if (!open) return;
  const closeIt = location.archivedAt
    ? "Restore and connect the location, resume that session or close its upstream session"
    : "Resume that session or close its upstream session (the location connected)";
  throw new DomainError(
    "CONFLICT",
    `Sync session ${open.id} left the upstream session open at upstream location “${location.upstreamLocationId}” (${location.environment}), ` +
      `which sends no campaigns until it is closed. ${closeIt} first, then ${doing}.`,
  );
}

export function assertNotArchived(row: Pick<LocationRow, "archivedAt">): void {
  if (row.archivedAt) throw new DomainError("CONFLICT", ARCHIVED_READ_ONLY);
}

/** What an archived location's page no longer offers: everything that would change it, but restore and delete. */
const changesToAnArchivedLocation = [
  "location.edit",
  "location.connect",
  "location.owners.invite",
  "location.environment.move",
  "schedule.pause",
  "preview.refresh",
  "preview.rebuild",
  "sync.start",
  "sync.replay",
  "sync.resume",
] as const satisfies readonly Action[];

export function permissionsAtArchivedLocation(permissions: Permissions): Permissions {
  return { ...permissions, ...Object.fromEntries(changesToAnArchivedLocation.map((action) => [action, false])) };
}
