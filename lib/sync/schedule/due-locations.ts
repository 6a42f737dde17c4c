import { and, eq, isNotNull, isNull, notExists, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations, syncSessions } from "@/db/schema";
import { SYNC_WINDOW } from "@/lib/locations/location-inputs";

export interface DueLocation {
  locationId: string;
  timeZone: string;
  /** The location's local date at `now` (YYYY-MM-DD): the session's scheduled_for. */
  localToday: string;
  /** Today's sync time as an instant (for logs and checks; due-ness compares wall times). */
  dueAt: Date;
}

/**
 * Connected locations whose daily sync is due at `now`: the local time (in the location's own
 * zone) has reached today's sync time and is still inside the sync window, and no session is
 * scheduled for their local today yet. One query in Postgres (its IANA zone data); the clock
 * is converted once per zone in use, not once per location, so a tick stays cheap with many.
 *
 * The comparison is on local wall times, which settles DST: a sync time that does not exist on
 * a spring-forward day (02:30) runs at the first valid instant after it (03:00); a repeated one
 * on a fall-back day runs at its first occurrence, once, since sessions are unique per
 * (location, scheduled_for). The 09:00–19:00 window keeps both out of reach in practice.
 * A zone Postgres does not know matches no clock: that location is never due.
 */
export async function findDueLocations(db: DatabaseOrTransaction, now: Date): Promise<DueLocation[]> {
  const instant = sql`${now.toISOString()}::timestamptz`;
  // Archived locations have no token; the explicit condition keeps them out whatever changes. A paused schedule (lib/fleet/schedule-pause.ts) starts nothing; manual syncs still run.
  const connected = and(
    isNotNull(locations.locationTokenEncrypted),
    isNotNull(locations.upstreamLocationId),
    isNull(locations.schedulePausedAt),
    isNull(locations.archivedAt),
  );
  // Zone names are compared without case, as PostgreSQL and luxon read them: "europe/berlin" is Berlin's clock too.
  const zoneClocks = db.$with("zone_clocks").as(
    db
      .select({
        timeZone: sql<string>`lower(name)`.as("clock_zone"),
        localNow: sql`${instant} at time zone name`.as("local_now"),
      })
      .from(sql`pg_timezone_names`)
      .where(
        sql`lower(name) in (${db
          .selectDistinct({ timeZone: sql`lower(${locations.timeZone})` })
          .from(locations)
          .where(connected)})`,
      ),
  );
  const localTime = sql`${zoneClocks.localNow}::time`;
  const localToday = sql`${zoneClocks.localNow}::date`;
  const dueAt = sql`(${localToday} + ${locations.syncTime}::time) at time zone ${locations.timeZone}`;

  const rows = await db
    .with(zoneClocks)
    .select({
      locationId: locations.id,
      timeZone: locations.timeZone,
      localToday: sql<string>`to_char(${localToday}, 'YYYY-MM-DD')`,
      dueAt: sql<string>`to_char(${dueAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    })
    .from(locations)
    .innerJoin(zoneClocks, eq(zoneClocks.timeZone, sql`lower(${locations.timeZone})`))
    .where(
      and(
        connected,
        sql`${localTime} >= ${SYNC_WINDOW.start}::time`,
        sql`${localTime} < ${SYNC_WINDOW.end}::time`,
        sql`${localTime} >= ${locations.syncTime}::time`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(syncSessions)
            .where(and(eq(syncSessions.locationId, locations.id), sql`${syncSessions.scheduledFor} = ${localToday}`)),
        ),
      ),
    )
    .orderBy(dueAt, locations.id);

  return rows.map((row) => ({ ...row, dueAt: new Date(row.dueAt) }));
}
