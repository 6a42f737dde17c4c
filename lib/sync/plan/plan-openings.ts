import type postgres from "postgres";
import { serviceKey } from "./record-selection";

/**
 * One openings import per service with valid openings now, plus one (empty) per service that had openings at the
 * last accepted sync and has none now, so stale ones disappear. Only services the upstream holds (what it last
 * accepted of the services step): an openings request for any other would be refused, and a service's removal
 * took its openings with it.
 */
export async function planOpenings(sql: postgres.Sql, input: { locationId: string }): Promise<string[]> {
  const services = await sql<{ service: string }[]>`
    select service from (
      select r.ref_service as service from preview_records r
      where r.location_id = ${input.locationId} and r.record_type = 'openings' and r.status in ('valid', 'warning') and r.ref_service is not null
      union
      select split_part(s.record_key, '|', 1) from synced_records s where s.location_id = ${input.locationId} and s.record_type = 'openings'
    ) services
    where service <> ''
      and exists (select 1 from synced_records held where held.location_id = ${input.locationId} and held.record_type = 'services' and held.record_key = service)
    order by service`;
  return services.map((row) => serviceKey(row.service));
}
