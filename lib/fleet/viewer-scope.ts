import { sql, type SQL } from "drizzle-orm";
import { locationMembers } from "@/db/schema";
import type { FleetViewer } from "./fleet-inputs";

/** A condition on a location id column: owners see only the locations they are members of; staff see all. */
export function visibleLocation(viewer: FleetViewer, locationId: SQL): SQL {
  if (viewer.role !== "owner") return sql`true`;
  return sql`exists (select 1 from ${locationMembers} m where m.location_id = ${locationId} and m.user_id = ${viewer.id})`;
}
