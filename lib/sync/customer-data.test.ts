import { systemContext } from "@/lib/operations/context";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locations, previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { computePreview } from "@/lib/preview/compute-preview";
import { listContactsToUnsubscribe } from "@/lib/preview/read-preview";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { confirmRemovals } from "./confirm-removals";
import { sampleNow as now, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, runTestSync, sandboxRequests, sandboxStored, useSyncSandbox } from "./testing/sync-test-setup";
import { forgetUnsyncedKeys, unsyncedKeysKnown } from "./unsynced-keys";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);

type Stored = Record<string, Record<string, unknown>>;
const upstreamTypes = ["calendars", "service_categories", "services", "contact_details", "appointments", "openings"] as const;

async function upstreamState(upstreamLocationId: string): Promise<Record<(typeof upstreamTypes)[number], Stored>> {
  const entries = await Promise.all(
    upstreamTypes.map(async (type) => [type, Object.fromEntries(await sandboxStored(db, upstreamLocationId, type)) as Stored] as const),
  );
  return Object.fromEntries(entries) as Record<(typeof upstreamTypes)[number], Stored>;
}

const sync = (locationId: string, rows: SourceRows, expected: "succeeded" | "failed" = "succeeded") =>
  runManualTestSync(testDb.db, locationId, rows, { expect: expected });
const runRequested = (sessionId: string, rows: SourceRows) => runTestSync(testDb.db, sessionId, rows);

const without = (record: Record<string, unknown>, ...fields: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([field]) => !fields.includes(field)));

describe("customers' data upstream", () => {
  it("survives a staff member leaving and a category's deletion, unsubscribes a deleted customer and clears emptied fields, and changes nothing else", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    rows.service_categories!.push({ id: "c2", name: "Colour", position: 2 });
    rows.services = rows.services!.map((service) => (service.id === "sv2" ? { ...service, category_id: "c2" } : service));
    rows.customers = rows.customers!.map((customer) =>
      customer.id === "cu3"
        ? sourceCustomer("cu3", { address_line_2: "Hinterhaus", phone: "0172 7654321", sms_opt_in: true, last_name: "Alt cu3" })
        : customer,
    );
    // s2 served two past visits and one to come; cu4 has no visits of its own.
    rows.appointments = [
      ...rows
        .appointments!.filter((appointment) => appointment.customer_id !== "cu4")
        .map((appointment) => (appointment.id === "a2" || appointment.id === "a1" ? { ...appointment, staff_id: "s2" } : appointment)),
      sourceAppointment("a6", "2026-03-25", { customer_id: "cu2", staff_id: "s2" }),
    ];
    await sync(location.id, rows);
    const before = await upstreamState(location.upstreamLocationId);
    expect(Object.keys(before.appointments).sort()).toEqual(["a1", "a2", "a3", "a5", "a6"]);
    expect(before.contact_details.cu3).toMatchObject({ address_line_2: "Hinterhaus", text_message_subscribed: true, email_subscribed: true });

    rows.staff = rows.staff!.filter((staff) => staff.id !== "s2");
    rows.service_categories = rows.service_categories!.filter((category) => category.id !== "c2");
    rows.customers = rows
      .customers!.filter((customer) => customer.id !== "cu4")
      .map((customer) => (customer.id === "cu3" ? { ...customer, email: null, phone: null, address_line_2: null } : customer));
    await sync(location.id, rows);
    const after = await upstreamState(location.upstreamLocationId);

    const expected = structuredClone(before);
    delete expected.calendars.s2;
    delete expected.service_categories.c2;
    expected.services.sv1 = { ...expected.services.sv1, calendar_external_ids: ["s1"] };
    expected.services.sv2 = without(expected.services.sv2!, "service_category_external_id");
    for (const key of ["a1", "a2", "a6"]) expected.appointments[key] = without(expected.appointments[key]!, "calendar_external_id");
    expected.contact_details.cu4 = { ...expected.contact_details.cu4, email_subscribed: false, text_message_subscribed: false };
    // The upstream merges an update: the old address stays, but no channel may be used and the second line is cleared.
    expected.contact_details.cu3 = { ...expected.contact_details.cu3, email_subscribed: false, text_message_subscribed: false, address_line_2: "" };
    expect(after).toEqual(expected);
    expect(Object.keys(after.appointments)).toHaveLength(5);
  });

  it("sends a customer who comes back in full again, once", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    rows.appointments = rows.appointments!.filter((appointment) => appointment.customer_id !== "cu4");
    await sync(location.id, rows);
    const sent = (await upstreamState(location.upstreamLocationId)).contact_details.cu4;

    const gone = { ...rows, customers: rows.customers!.filter((customer) => customer.id !== "cu4") };
    // The preview lists who the next sync unsubscribes.
    const [run] = await db.insert(previewRuns).values({ locationId: location.id }).returning();
    await computePreview(systemContext(testDb.db), { runId: run!.id, reader: createArraySourceReader(structuredClone(gone)), now });
    const [counted] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
    expect(counted!.counts!.contact_details).toMatchObject({ removed: 1 });
    expect(await listContactsToUnsubscribe(db, location.id)).toEqual(["cu4"]);
    const away = await sync(location.id, gone);
    expect(await listContactsToUnsubscribe(db, location.id)).toEqual([]);
    expect((await upstreamState(location.upstreamLocationId)).contact_details.cu4).toEqual({
      ...sent,
      email_subscribed: false,
      text_message_subscribed: false,
    });
    const requestsAfterAway = (await sandboxRequests(db, location.upstreamLocationId)).length;
    // Unsubscribed once: the next sync sends no contacts at all.
    await sync(location.id, gone);
    const quiet = (await sandboxRequests(db, location.upstreamLocationId)).slice(requestsAfterAway);
    expect(quiet.filter((request) => request.startsWith("POST contact_details"))).toEqual([]);
    expect(away.id).toBeTruthy();

    await sync(location.id, rows);
    expect((await upstreamState(location.upstreamLocationId)).contact_details.cu4).toEqual(sent);
  });

  it("sends no openings request for a service the upstream no longer holds", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await sync(location.id, rows);
    expect(Object.values((await upstreamState(location.upstreamLocationId)).openings).length).toBe(2);
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;

    // The service is discontinued: its visits stay (without it), its slots still in the source are not promoted.
    rows.services = rows.services!.filter((service) => service.id !== "sv2");
    // sv1's slots move by half an hour: its openings differ from what the upstream holds, so it is sent again.
    rows.availability = rows.availability!.map((slot) =>
      slot.service_id === "sv1" ? { ...slot, starts_at: String(slot.starts_at).replace(/:00:00$/, ":30:00") } : slot,
    );
    await sync(location.id, rows);
    const requests = (await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore);
    expect(requests.filter((request) => request.startsWith("POST batch_sync_openings"))).toEqual(["POST batch_sync_openings 200"]);
    const after = await upstreamState(location.upstreamLocationId);
    expect(Object.keys(after.services)).toEqual(["sv1"]);
    expect(Object.values(after.openings)).toHaveLength(1);
  });

  // The first preview, computed after the first sync, starts the location's unsynced keys: the next session plans, and
  // counts what it would remove, from them alone (lib/sync/unsynced-keys.ts); without them it compares the whole location.
  it.each([
    ["by comparing the whole location", false],
    ["from the unsynced keys", true],
  ])(
    "stops before sending when the source suddenly returns no customers and no appointments, and sends once a person confirms (planned %s)",
    async (_, ledger) => {
      const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
      const rows = sampleSourceRows();
      rows.customers = Array.from({ length: 60 }, (_, index) => sourceCustomer(`cu${index + 1}`));
      rows.appointments = Array.from({ length: 60 }, (_, index) =>
        sourceAppointment(`a${index + 1}`, `2026-02-${String((index % 28) + 1).padStart(2, "0")}`, {
          customer_id: `cu${index + 1}`,
          status: "completed",
        }),
      );
      await sync(location.id, rows);
      if (!ledger) await forgetUnsyncedKeys(db, location.id);
      expect(await unsyncedKeysKnown(db, location.id)).toBe(ledger);
      const before = await upstreamState(location.upstreamLocationId);
      const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;

      const empty = { ...rows, customers: [], appointments: [] };
      const stopped = await sync(location.id, empty, "failed");
      expect(stopped.removalStop!.checks.map(({ step, removals, held, threshold }) => ({ step, removals, held, threshold }))).toEqual([
        { step: "contact_details", removals: 60, held: 60, threshold: 49 },
        { step: "appointments", removals: 60, held: 60, threshold: 49 },
      ]);
      expect(stopped.removalStop!.checks[0]!.examples).toEqual(["cu1", "cu10", "cu11", "cu12", "cu13"]);
      expect(stopped.error).toMatch(
        /^Stopped before sending anything: it would unsubscribe 60 of the 60 contacts the upstream holds .* and remove 60 of the 60 appointments/,
      );
      // Nothing at all was sent: not even the session was opened.
      expect((await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore)).toEqual([]);
      expect(await upstreamState(location.upstreamLocationId)).toEqual(before);
      const [flagged] = await db.select().from(locations).where(eq(locations.id, location.id));
      expect(flagged!.attentionReason).toMatch(/^The last sync stopped before sending anything: it would unsubscribe 60/);

      // A scheduled or manual retry without a confirmation stops again.
      const again = await sync(location.id, empty, "failed");
      expect(again.removalStop).not.toBeNull();

      const actor = systemActorAs("support@example.test", "198.51.100.7");
      await expect(confirmRemovals({ db, actor }, { sessionId: stopped.id, reason: "The salon closed its customer book" })).rejects.toThrow(
        /later session/,
      );
      // Two people confirming at once start one session; the other is told it is already open.
      const attempts = await Promise.allSettled(
        Array.from({ length: 5 }, () => confirmRemovals({ db, actor }, { sessionId: again.id, reason: "The salon closed its customer book" })),
      );
      const started = attempts.filter((attempt) => attempt.status === "fulfilled");
      expect(started).toHaveLength(1);
      for (const attempt of attempts) if (attempt.status === "rejected") expect(String(attempt.reason)).toMatch(/already open|later session/);
      const confirmed = (started[0] as PromiseFulfilledResult<{ sessionId: string }>).value;
      await runRequested(confirmed.sessionId, empty);
      const after = await upstreamState(location.upstreamLocationId);
      expect(after.appointments).toEqual({});
      expect(
        Object.values(after.contact_details).every((contact) => contact.email_subscribed === false && contact.text_message_subscribed === false),
      ).toBe(true);
      expect(Object.keys(after.contact_details)).toHaveLength(60);
      const audits = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "sync.removals_confirmed"), eq(auditLog.targetId, location.id)));
      expect(audits).toHaveLength(1);
      const [audit] = audits;
      expect(audit).toMatchObject({
        actorEmail: "support@example.test",
        details: expect.objectContaining({ reason: "The salon closed its customer book", sessionId: confirmed.sessionId }),
      });
      const [cleared] = await db.select().from(locations).where(eq(locations.id, location.id));
      expect(cleared!.attentionReason).toBeNull();
    },
  );

  // Under the minimum of 50 records, removing everything the upstream holds of a type still asks: a staff, menu or
  // customers query that came back empty at a small location, or for a type of a few records (its calendars).
  it("stops before sending when the source suddenly returns no staff, no menu and none of a few customers", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await sync(location.id, rows);
    const before = await upstreamState(location.upstreamLocationId);
    const requestsBefore = (await sandboxRequests(db, location.upstreamLocationId)).length;
    const held = (type: keyof typeof before) => Object.keys(before[type]).length;

    const empty = { ...rows, staff: [], service_categories: [], services: [], customers: [], appointments: [] };
    const stopped = await sync(location.id, empty, "failed");
    // The only category going is ordinary churn: everything of a type stops only when it is more than one record.
    expect(held("service_categories")).toBe(1);
    expect(stopped.removalStop!.checks.map(({ step, removals, held, threshold }) => ({ step, removals, held, threshold }))).toEqual(
      (["calendars", "services", "contact_details", "appointments"] as const).map((step) => ({
        step,
        removals: held(step),
        held: held(step),
        threshold: held(step) - 1,
      })),
    );
    expect(held("calendars")).toBeGreaterThan(0);
    expect(stopped.removalStop!.checks[0]!.examples).toEqual(Object.keys(before.calendars).sort().slice(0, 5));
    expect(stopped.error).toMatch(/^Stopped before sending anything: it would remove \d+ of the \d+ calendars the upstream holds/);
    expect((await sandboxRequests(db, location.upstreamLocationId)).slice(requestsBefore)).toEqual([]);
    expect(await upstreamState(location.upstreamLocationId)).toEqual(before);

    // One staff member leaving is no stop; nor is the only one left replaced by a newcomer (1 of the 1 held removed, one sent).
    const [leaving, ...staying] = rows.staff!;
    await sync(location.id, { ...rows, staff: staying });
    expect(Object.keys((await upstreamState(location.upstreamLocationId)).calendars)).not.toContain(leaving!.id);
    expect(staying).toHaveLength(1);
    await sync(location.id, { ...rows, staff: [{ ...staying[0]!, id: "s9", display_name: "Newcomer" }] });
    expect(Object.keys((await upstreamState(location.upstreamLocationId)).calendars)).toEqual(["s9"]);
  });

  it("lets a small change through without asking", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const rows = sampleSourceRows();
    await sync(location.id, rows);
    // 1 of 4 contacts (25%) is over 10%, but under the minimum of 50 records: no confirmation needed.
    await sync(location.id, {
      ...rows,
      customers: rows.customers!.filter((customer) => customer.id !== "cu4"),
      appointments: rows.appointments!.filter((appointment) => appointment.customer_id !== "cu4"),
    });
  });
});
