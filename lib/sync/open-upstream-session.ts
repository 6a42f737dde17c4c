import { sql, type SQL } from "drizzle-orm";

/**
 * Whether a session of the location left the upstream session open where the location syncs now (its environment and
 * upstream location ID): the one a resume or Close upstream session can still end. One left open elsewhere (a session
 * from before migration 0040 let a location move) cannot be ended from here, and says nothing about this location now.
 */
export function upstreamSessionOpenHere(locationId: SQL | string): SQL {
  return sql`exists (select 1 from sync_sessions o join locations l on l.id = o.location_id
                     where o.location_id = ${locationId} and o.upstream_open
                       and o.environment = l.environment and o.upstream_location_id = l.upstream_location_id)`;
}
