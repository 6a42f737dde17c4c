import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/metrics/route";
import { useTestDatabase } from "@/db/testing/test-database";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { sampleSourceRows } from "@/lib/sync/testing/sample-source";
import { createConnectedLocation, runManualTestSync, sandboxRequests, sandboxStored, useSyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { ATTEMPT_DURATION_BUCKETS } from "./collect-metrics";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const token = "metrics-token-0123456789abcdef";

beforeEach(() => {
  process.env.METRICS_TOKEN = token;
});
afterEach(async () => {
  delete process.env.METRICS_TOKEN;
  await clearFaults(db);
});

const scrape = (authorization?: string) =>
  GET(new Request("http://app.test/api/metrics", { headers: authorization ? { authorization } : {} }), { params: Promise.resolve({}) });

/** `name{labels}` → value, from the text format (comments skipped). */
function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

const sumOf = (samples: Map<string, number>, prefix: string, labelPart: string) =>
  [...samples].filter(([key]) => key.startsWith(`${prefix}{`) && key.includes(labelPart)).reduce((total, [, value]) => total + value, 0);

describe("GET /api/metrics", () => {
  it("is not there without a token setting, and refuses a missing or wrong token", async () => {
    delete process.env.METRICS_TOKEN;
    expect((await scrape(`Bearer ${token}`)).status).toBe(404);
    process.env.METRICS_TOKEN = token;
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape(`Bearer ${token}x`)).status).toBe(401);
    expect((await scrape(`Bearer ${token.slice(0, -1)}`)).status).toBe(401);
    expect((await scrape(token)).status).toBe(401);
    expect((await scrape(`Bearer ${token}`)).status).toBe(200);
  });

  it("counts a real sync against the sandbox: outcome, records sent and skipped, upstream statuses, durations, the queue", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "batch_sync_calendars", mode: { kind: "status", status: 503 }, count: 1 });
    const rows = sampleSourceRows();
    const appointments = rows.appointments!;
    appointments.push({ ...appointments[2]!, id: "a6", status: "canceled" });
    await runManualTestSync(db, location.id, rows);
    // The session's job was queued and no worker took it (the test ran the session itself): make it wait 2 minutes.
    await db.execute(sql`update pgboss.job set start_after = now() - interval '120 seconds' where name = 'sync.session'`);

    const response = await scrape(`Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const samples = samplesOf(await response.text());

    expect(samples.get('location_sync_sessions_total{outcome="succeeded"}')).toBe(1);
    expect(samples.get('location_sync_sessions_total{outcome="failed"}')).toBe(0);
    expect(samples.get('location_sync_sessions_in_flight{status="running"}')).toBe(0);

    // What the upstream now holds is what the metrics say was sent; the canceled appointment was left out by rule.
    const storedContacts = (await sandboxStored(db, location.upstreamLocationId, "contact_details")).size;
    const storedAppointments = (await sandboxStored(db, location.upstreamLocationId, "appointments")).size;
    expect([storedContacts, storedAppointments]).toEqual([4, 5]);
    expect(samples.get('location_sync_records_sent_total{step="contact_details"}')).toBe(storedContacts);
    expect(samples.get('location_sync_records_sent_total{step="appointments"}')).toBe(storedAppointments);
    expect(samples.get('location_sync_records_skipped_total{step="appointments",reason="excluded"}')).toBe(1);
    expect(samples.get('location_sync_records_skipped_total{step="appointments",reason="invalid"}')).toBe(0);

    // Every status the sandbox answered during the session, as many times as it answered it.
    const answered = (await sandboxRequests(db, location.upstreamLocationId)).filter((line) => !line.includes("access_tokens"));
    const byStatus = Map.groupBy(answered, (line) => line.split(" ").at(-1)!);
    expect([...byStatus.keys()].sort()).toEqual(["200", "503"]);
    for (const [status, lines] of byStatus)
      expect(sumOf(samples, "location_sync_upstream_responses_total", `status="${status}"`), status).toBe(lines.length);
    expect(samples.get('location_sync_upstream_responses_total{operation="syncCalendars",status="503"}')).toBe(1);

    // Histograms: one observation per HTTP attempt and per finished step, cumulative buckets ending in the count.
    const calendarsAttempts = sumOf(samples, "location_sync_upstream_responses_total", 'operation="syncCalendars"');
    expect(calendarsAttempts).toBe(2);
    expect(samples.get('location_sync_attempt_duration_seconds_count{operation="syncCalendars"}')).toBe(calendarsAttempts);
    const buckets = [...ATTEMPT_DURATION_BUCKETS.map(String), "+Inf"].map((bound) =>
      samples.get(`location_sync_attempt_duration_seconds_bucket{operation="syncCalendars",le="${bound}"}`)!,
    );
    expect(buckets.at(-1)).toBe(calendarsAttempts);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(samples.get('location_sync_attempt_duration_seconds_sum{operation="syncCalendars"}')).toBeGreaterThan(0);
    for (const step of ["open", "calendars", "contact_details", "appointments", "close"]) {
      expect(samples.get(`location_sync_step_duration_seconds_count{step="${step}"}`), step).toBe(1);
      expect(samples.get(`location_sync_step_duration_seconds_bucket{step="${step}",le="+Inf"}`), step).toBe(1);
    }

    expect(samples.get('location_sync_job_queue_depth{queue="sync.session"}')).toBe(1);
    expect(samples.get('location_sync_job_queue_oldest_age_seconds{queue="sync.session"}')).toBeGreaterThanOrEqual(120);
    expect(samples.get('location_sync_job_queue_oldest_age_seconds{queue="sync.session"}')).toBeLessThan(600);
  });
});
