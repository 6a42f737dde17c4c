import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { locationMembers, locations } from "@/db/schema";
import type { CurrentUser } from "@/lib/auth/current-user";

/** Staff see every location; owners only those they are members of. */
export async function listVisibleLocations(db: Database, user: CurrentUser) {
  const columns = { id: locations.id, name: locations.name, createdAt: locations.createdAt };
  if (user.role !== "owner") return db.select(columns).from(locations).orderBy(asc(locations.name));
  return db
    .select(columns)
    .from(locations)
    .innerJoin(locationMembers, eq(locationMembers.locationId, locations.id))
    .where(eq(locationMembers.userId, user.id))
    .orderBy(asc(locations.name));
}
