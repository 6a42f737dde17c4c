import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { computePreview } from "./compute-preview";
import { issuesCsvStream } from "./issues-csv";
import { PreviewQuery } from "./preview-inputs";
import { getShownPreviewRun, listPreviewPage } from "./read-preview";
import type { SourceReader } from "@/lib/source/source-reader";
import { createPreviewLocation } from "./testing/preview-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const now = new Date("2026-03-27T09:00:00Z");

function sourceRows(): SourceRows {
  return {
    staff: [{ id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: "Anna S." }],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [{ id: "sv1", name: "Cut", description: null, bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1"], position: 1 }],
    // cu2 has an invalid phone: a warning, still sent.
    customers: [sourceCustomer("cu1"), sourceCustomer("cu2", { phone: "n/a" }), sourceCustomer("cu3")],
    appointments: [sourceAppointment("a1", "2026-03-20", { status: "completed" })],
    availability: [],
  };
}

let locationId: string;
beforeEach(async () => {
  locationId = await createPreviewLocation(db);
});

describe("the counts the preview page shows and the records its filters list", () => {
  it("the Valid count is the number of records the Valid filter lists (those with warnings among them)", async () => {
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(db), { runId: run!.id, reader: createArraySourceReader(sourceRows()), now });
    const [done] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
    expect(done!.status).toBe("succeeded");
    const counts = done!.counts!.contact_details!;
    expect(counts.warnings).toBe(1);
    const listed = await listPreviewPage(db, locationId, PreviewQuery.parse({ type: "contact_details", status: "valid" }));
    expect(listed.total).toBe(counts.valid);
  });
});

describe("the shown preview and the failed runs after it", () => {
  it("ten failed refreshes do not hide the preview that is still in the tables", async () => {
    const engineer = { id: "00000000-0000-4000-8000-0000000000e1", role: "engineer" } as const;
    const [first] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(db), { runId: first!.id, reader: createArraySourceReader(sourceRows()), now });
    expect((await getShownPreviewRun({ db, actor: engineer }, { locationId })).id).toBe(first!.id);
    // The source fails while it is read (an outage): each refresh fails and changes nothing.
    const good = createArraySourceReader(sourceRows());
    const failing: SourceReader = new Proxy(good, {
      get(target, name, receiver) {
        if (name === "read") return () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("source down")) }) });
        return Reflect.get(target, name, receiver);
      },
    });
    for (let attempt = 0; attempt < 10; attempt++) {
      const [run] = await db.insert(previewRuns).values({ locationId }).returning();
      await computePreview(systemContext(db), { runId: run!.id, reader: failing, now });
      const [after] = await db.select().from(previewRuns).where(eq(previewRuns.id, run!.id));
      expect(after!.status).toBe("failed");
    }
    // The records of the first run are still the location's; the page should still show them.
    const page = await listPreviewPage(db, locationId, PreviewQuery.parse({ type: "contact_details" }));
    expect(page.total).toBe(3);
    expect((await getShownPreviewRun({ db, actor: engineer }, { locationId })).id).toBe(first!.id);
  });
});

describe("the issues CSV masks birthdates", () => {
  it("a birthdate typed in full-width digits shows none of its digits", async () => {
    const rows = sourceRows();
    rows.customers = [sourceCustomer("cu1", { birthdate: "１９８５-０４-１２" })];
    const [run] = await db.insert(previewRuns).values({ locationId }).returning();
    await computePreview(systemContext(db), { runId: run!.id, reader: createArraySourceReader(rows), now });
    const csv = await new Response(issuesCsvStream(db, locationId)).text();
    expect(csv).toContain("invalid_birthdate");
    expect(csv).not.toContain("１９８５-０４-１２");
  });
});
