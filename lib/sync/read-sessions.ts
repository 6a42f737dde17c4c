import { desc, eq } from "drizzle-orm";
import { syncSessions } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor } from "@/lib/auth/permissions";
import type { OperationContext } from "@/lib/operations/context";
import { selectSessionRows, toSessionRow } from "./session-columns";
import type { SessionRow } from "./session-view";

/** The latest sessions of a location, newest first, each as SessionRow (the `session` of a SessionView). */
export async function listSessions(ctx: OperationContext<Actor>, input: { locationId: string; limit?: number }): Promise<SessionRow[]> {
  await assertCanAtLocation(ctx.db, ctx.actor, "session.view", input.locationId);
  const rows = await selectSessionRows(ctx.db)
    .where(eq(syncSessions.locationId, input.locationId))
    .orderBy(desc(syncSessions.createdAt))
    .limit(input.limit ?? 50);
  return rows.map(toSessionRow);
}
