import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { stopJobSender } from "@/lib/jobs/job-sender";
import { generateDemoSource } from "@/lib/source/demo/generate-demo-source";
import { getSessionView } from "@/lib/sync/read-session-view";
import { SessionView } from "@/lib/sync/session-view";
import { createConnectedLocation, startSyncSandbox, type SyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { runCli } from "./testing/run-cli";

// The CLI runs as its own process: it opens the location token with the same key as this test.
process.env.APP_SECRET_KEY ??= randomBytes(32).toString("base64");
const testDb = await useTestDatabase();
let setup: SyncSandbox;
beforeAll(async () => {
  setup = await startSyncSandbox(testDb.db);
});
afterAll(async () => {
  await setup.close();
  await stopJobSender();
});

describe("sync CLI", () => {
  it("runs a session with --wait, then lists it and shows every step and attempt", async () => {
    const [sourceKey] = await generateDemoSource(testDb.db, { locations: 1, contacts: 10, years: 1, seed: 4, sourceKeys: ["cli-sync"] });
    const location = await createConnectedLocation(testDb.db, setup, { sourceKey });
    const synced = await runCli(testDb.url, ["sync", location.id, "--steps", "calendars,service_categories,services", "--wait", "--json"]);
    expect(synced.stderr).toBe("");
    expect(synced.code, synced.stdout.slice(0, 3000)).toBe(0);
    const detail = JSON.parse(synced.stdout) as {
      session: { id: string; status: string };
      steps: { name: string; status: string }[];
      attempts: unknown[];
    };
    expect(detail.session.status).toBe("succeeded");
    expect(detail.steps.map((step) => step.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
      "skipped",
      "succeeded",
      "succeeded",
      "succeeded",
    ]);

    const [started] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "sync.session_started"));
    expect(started).toMatchObject({ actorEmail: "cli", targetId: location.id, details: { sessionId: detail.session.id, trigger: "cli" } });

    const sessions = await runCli(testDb.url, ["sessions", location.id, "--json"]);
    expect((JSON.parse(sessions.stdout) as { id: string; trigger: string }[]).map((session) => [session.id, session.trigger])).toEqual([
      [detail.session.id, "cli"],
    ]);
    const shown = await runCli(testDb.url, ["session", detail.session.id, "--json"]);
    const parsed = JSON.parse(shown.stdout) as { attempts: { operation: string }[] };
    expect(parsed.attempts.map((attempt) => attempt.operation)).toContain("importContactDetails");
    // One shape: what GET /api/sessions/[id] answers a staff member (getSessionView, as JSON) is what the CLI printed.
    const engineer = { id: randomUUID(), role: "engineer" as const, email: "engineer@example.test" };
    const answered: unknown = JSON.parse(JSON.stringify(await getSessionView({ db: testDb.db, actor: engineer }, { sessionId: detail.session.id })));
    expect(JSON.parse(shown.stdout)).toEqual(answered);
    expect(SessionView.safeParse(answered).success).toBe(true);

    const closing = await runCli(testDb.url, ["session:close-upstream", detail.session.id]);
    expect(closing.code).toBe(1);
    expect(closing.stderr).toContain("did not leave the upstream session open");

    const tooShort = await runCli(testDb.url, ["session:confirm-removals", detail.session.id, "--reason", "x"]);
    expect({ code: tooShort.code, stderr: tooShort.stderr }).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--reason: say why these removals are right"),
    });
    const notStopped = await runCli(testDb.url, ["session:confirm-removals", detail.session.id, "--reason", "the salon closed"]);
    expect({ code: notStopped.code, stderr: notStopped.stderr }).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("not stopped by the removal safety valve"),
    });
  });

  it("replays the appointments of a date range with a reason, and nothing else", async () => {
    const [sourceKey] = await generateDemoSource(testDb.db, { locations: 1, contacts: 10, years: 1, seed: 5, sourceKeys: ["cli-replay"] });
    const location = await createConnectedLocation(testDb.db, setup, { sourceKey });
    expect((await runCli(testDb.url, ["sync", location.id, "--wait"])).code).toBe(0);

    const withoutReason = await runCli(testDb.url, ["sync", location.id, "--steps", "appointments", "--from", "2026-01-01"]);
    expect({ code: withoutReason.code, stderr: withoutReason.stderr }).toMatchObject({ code: 1, stderr: expect.stringContaining("add --reason") });

    const today = new Date().toISOString().slice(0, 10);
    const replayed = await runCli(testDb.url, [
      "sync",
      location.id,
      "--steps",
      "appointments",
      "--from",
      today,
      "--to",
      today,
      "--reason",
      "the upstream lost today",
      "--wait",
      "--json",
    ]);
    expect(replayed.code, replayed.stderr || replayed.stdout.slice(0, 2000)).toBe(0);
    const view = SessionView.parse(JSON.parse(replayed.stdout));
    expect(view.session).toMatchObject({
      trigger: "cli",
      replay: { steps: ["appointments"], from: today, to: today, reason: "the upstream lost today" },
    });
    expect(view.steps.filter((step) => step.status !== "skipped").map((step) => step.name)).toEqual(["open", "appointments", "close"]);
    expect(view.steps.find((step) => step.name === "appointments")!.items.map((item) => item.key)).toEqual([`${today}..${today}`]);
    const [audited] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "sync.replay_started"));
    expect(audited).toMatchObject({ actorEmail: "cli", targetId: location.id, details: { reason: "the upstream lost today" } });
  });

  it("answers sessions of an unknown location not found with exit code 1, as session and sync do; a location without any: none", async () => {
    const unknown = await runCli(testDb.url, ["sessions", "00000000-0000-4000-8000-000000000000"]);
    expect({ code: unknown.code, stdout: unknown.stdout, stderr: unknown.stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: Location not found.\n",
    });
    const [location] = await testDb.db.insert(locations).values({ name: "CLI Quiet Salon", timeZone: "Europe/Berlin" }).returning();
    const none = await runCli(testDb.url, ["sessions", location!.id, "--json"]);
    expect({ code: none.code, stdout: JSON.parse(none.stdout) as unknown, stderr: none.stderr }).toEqual({ code: 0, stdout: [], stderr: "" });
  });

  it("names unknown optional steps", async () => {
    const result = await runCli(testDb.url, ["sync", "00000000-0000-4000-8000-000000000000", "--steps", "contacts"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--steps: contacts unknown; choose from calendars, service_categories, services");
  });
});
