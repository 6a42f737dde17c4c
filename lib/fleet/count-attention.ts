import { sql } from "drizzle-orm";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { FleetViewer } from "./fleet-inputs";
import type { OperationContext } from "@/lib/operations/context";

/** Locations the viewer may see that need a person to look at them (the navigation badge). */
export async function countLocationsNeedingAttention(ctx: OperationContext<FleetViewer>): Promise<number> {
  const { db, actor: viewer } = ctx;
  const [row] = await db.execute<{ total: number }>(sql`
    select count(*)::int as total from locations l
    where l.attention_reason is not null and ${visibleLocationCondition(viewer, "location.view", sql`l.id`)}`);
  return row?.total ?? 0;
}
