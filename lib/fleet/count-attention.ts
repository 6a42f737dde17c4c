import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { visibleLocationCondition } from "@/lib/auth/location-access";
import type { FleetViewer } from "./fleet-inputs";

/** Locations the viewer may see that need a person to look at them (the navigation badge). */
export async function countLocationsNeedingAttention(db: DatabaseOrTransaction, viewer: FleetViewer): Promise<number> {
  const [row] = await db.execute<{ total: number }>(sql`
    select count(*)::int as total from locations l
    where l.attention_reason is not null and ${visibleLocationCondition(viewer, "location.view", sql`l.id`)}`);
  return row?.total ?? 0;
}
