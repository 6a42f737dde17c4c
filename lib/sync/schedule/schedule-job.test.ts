import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import { locations, syncSessions } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { AnyJob } from "@/lib/jobs/define-job";
import { startJobEngine, type JobEngine } from "@/lib/jobs/job-engine";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { scheduleSyncsJob } from "./schedule-job";

const testDb = await useTestDatabase();
// Two worker processes on one database; each has the scheduler's cron and takes its jobs.
const workers = await Promise.all(
  [1, 2].map(() => startJobEngine({ databaseUrl: testDb.url, work: true, jobs: [scheduleSyncsJob as unknown as AnyJob], log: () => {} })),
);
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await stopJobSender();
});

/** A fixed-offset zone whose local time is now about 12:00 (Etc/GMT-N is UTC+N). */
function zoneAtLocalNoon(): string {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

async function waitForJob(worker: JobEngine, id: string) {
  for (let i = 0; i < 150; i++) {
    const job = await worker.boss.getJobById(scheduleSyncsJob.name, id);
    if (job && (job.state === "completed" || job.state === "failed")) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("scheduler job did not finish");
}

describe("sync.schedule", () => {
  it("is scheduled every minute (UTC) on a singleton queue", async () => {
    const [schedule] = await testDb.db.execute<{ cron: string; timezone: string }>(
      sql`select cron, timezone from pgboss.schedule where name = ${scheduleSyncsJob.name}`,
    );
    expect(schedule).toEqual({ cron: "* * * * *", timezone: "UTC" });
    const [queue] = await testDb.db.execute<{ policy: string }>(sql`select policy from pgboss.queue where name = ${scheduleSyncsJob.name}`);
    expect(queue?.policy).toBe("singleton");
  });

  it("starts each due location exactly once per local day when two workers tick at the same time", async () => {
    const timeZones = [zoneAtLocalNoon(), "Etc/GMT+12", "Etc/GMT-14"];
    const created = await testDb.db
      .insert(locations)
      .values(
        timeZones.flatMap((timeZone) =>
          Array.from({ length: 10 }, (_, index) => ({
            name: `Salon ${timeZone} ${index}`,
            timeZone,
            syncTime: "09:00",
            upstreamLocationId: randomUUID(),
            locationTokenEncrypted: "sealed-token",
          })),
        ),
      )
      .returning();
    const localTime = (timeZone: string) => DateTime.now().setZone(timeZone).toFormat("HH:mm");
    const dueNow = created.filter((location) => localTime(location.timeZone) >= "09:00" && localTime(location.timeZone) < "19:00");
    expect(dueNow.length).toBeGreaterThanOrEqual(10);

    // Each worker runs the handler directly and receives a tick through pg-boss, all at once.
    const [, , ...jobIds] = await Promise.all([
      scheduleSyncsJob.handle({}, { jobId: "direct-1" }),
      scheduleSyncsJob.handle({}, { jobId: "direct-2" }),
      ...workers.map((worker) => scheduleSyncsJob.send(worker.boss, {})),
    ]);
    for (const [index, jobId] of jobIds.entries()) if (jobId) expect((await waitForJob(workers[index]!, jobId)).state).toBe("completed");

    const sessions = await testDb.db
      .select({ locationId: syncSessions.locationId, scheduledFor: syncSessions.scheduledFor, trigger: syncSessions.trigger })
      .from(syncSessions)
      .where(
        inArray(
          syncSessions.locationId,
          created.map((location) => location.id),
        ),
      );
    const expected = dueNow.map((location) => ({
      locationId: location.id,
      scheduledFor: DateTime.now().setZone(location.timeZone).toISODate(),
      trigger: "schedule",
    }));
    expect(sessions).toHaveLength(dueNow.length);
    expect(sessions).toEqual(expect.arrayContaining(expected));
  });

  it("starts a location that became due while no tick ran at the next tick: the state is in the database, not in a worker", async () => {
    const timeZone = zoneAtLocalNoon();
    const [location] = await testDb.db
      .insert(locations)
      .values({ name: "Late Salon", timeZone, syncTime: "09:30", upstreamLocationId: randomUUID(), locationTokenEncrypted: "sealed-token" })
      .returning();
    await scheduleSyncsJob.handle({}, { jobId: "after-restart" });
    const sessions = await testDb.db.select().from(syncSessions).where(eq(syncSessions.locationId, location!.id));
    expect(sessions).toMatchObject([{ trigger: "schedule", scheduledFor: DateTime.now().setZone(timeZone).toISODate(), requestedByEmail: null }]);
  });
});
