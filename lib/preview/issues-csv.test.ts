import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/raw-sql";
import { previewRuns } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { DomainError } from "@/lib/errors/domain-error";
import { systemContext } from "@/lib/operations/context";
import { createArraySourceReader, type SourceRows } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment, sourceCustomer } from "@/lib/source/testing/source-row-factories";
import { computePreview } from "./compute-preview";
import { issuesCsvStream, spreadsheetSafe } from "./issues-csv";
import { PREVIEW_PAGE_SIZE, PreviewQuery } from "./preview-inputs";
import { previewRecordTypes } from "./preview-plan";
import { getPreviewRecord, getShownPreviewRun, listPreviewRecords } from "./read-preview";
import { createPreviewLocation } from "./testing/preview-location";

const testDb = await useTestDatabase();
const { db } = testDb;
const now = new Date("2026-03-27T09:00:00Z");
const engineer = { id: "00000000-0000-4000-8000-0000000000e1", role: "engineer", email: "engineer@example.test" } as const;

function sourceRows(customers = [sourceCustomer("cu1"), sourceCustomer("cu2", { phone: "n/a" })]): SourceRows {
  return {
    staff: [{ id: "s1", first_name: "Anna", last_name: "Schmidt", display_name: "Anna S." }],
    service_categories: [{ id: "c1", name: "Hair", position: 1 }],
    services: [{ id: "sv1", name: "Cut", description: null, bookable: true, price: "25.00", category_id: "c1", staff_ids: ["s1"], position: 1 }],
    customers,
    appointments: [
      sourceAppointment("a1", "2026-03-20", { status: "completed" }),
      sourceAppointment("a2", "2026-03-20", { status: "completed", customer_id: "ghost" }),
    ],
    availability: [],
  };
}

let locationId: string;

beforeEach(async () => {
  locationId = await createPreviewLocation(db);
});

async function startRun(reader = createArraySourceReader(sourceRows())) {
  const [run] = await db.insert(previewRuns).values({ locationId }).returning();
  const computing = computePreview(systemContext(db), { runId: run!.id, reader, now, batchSize: 1 });
  return { runId: run!.id, computing };
}

const statusOf = async (runId: string) => (await db.select().from(previewRuns).where(eq(previewRuns.id, runId)))[0]!.status;

/** What the issues route answers: the shown run (NOT_FOUND without one), then the CSV's rows. */
async function downloadCsv(): Promise<string[][]> {
  await getShownPreviewRun({ db, actor: engineer }, { locationId });
  const text = await new Response(issuesCsvStream(db, locationId)).text();
  const [header, ...rows] = parse(text) as string[][];
  expect(header).toEqual(["record_type", "source_id", "external_id", "severity", "field", "code", "reason", "original_value_masked"]);
  return rows.sort();
}

/** Every issue the page lists, record by record (each record's side panel), as the CSV's rows. */
async function issuesOnThePage(): Promise<string[][]> {
  const rows: string[][] = [];
  for (const type of previewRecordTypes) {
    for (let page = 0; ; page++) {
      const { items, total } = await listPreviewRecords(db, locationId, PreviewQuery.parse({ type, page }));
      for (const item of items) {
        const record = await getPreviewRecord(db, locationId, type, item.seq);
        for (const issue of record!.issues)
          rows.push(
            [type, item.sourceId, item.recordKey, issue.severity, issue.field, issue.code, issue.reason, issue.original].map(spreadsheetSafe),
          );
      }
      if ((page + 1) * PREVIEW_PAGE_SIZE >= total) break;
    }
  }
  return rows.sort();
}

/** A read of the changed appointments that waits to be let go: the run is then inside its transaction, contacts replaced. */
function heldReader(rows: SourceRows) {
  const reader = createArraySourceReader(rows);
  const read = reader.read.bind(reader);
  let release!: (failure?: Error) => void;
  const released = new Promise<Error | undefined>((resolve) => (release = resolve));
  reader.read = async function* (resource, params, options) {
    if (resource === "appointments" && options?.filter?.changedSince) {
      const failure = await released;
      if (failure) throw failure;
    }
    yield* read(resource, params, options);
  };
  return { reader, release };
}

async function untilContactsReplaced(runId: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [run] = await db.select().from(previewRuns).where(eq(previewRuns.id, runId));
    if (run!.progress.contact_details?.done) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the run did not replace the contacts");
}

/** Whether another connection holds written, uncommitted changes to preview_issues (a run's open transaction). */
async function issuesBeingRewritten(): Promise<boolean> {
  const [row] = await queryRows<{ writers: number }>(
    db,
    sql`select count(*)::int as writers from pg_locks l join pg_class c on c.oid = l.relation
        where c.relname = 'preview_issues' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`,
  );
  return row!.writers > 0;
}

describe("issuesCsvStream", () => {
  it("lists the issues the page shows for the shown run, while a later run is in flight, after it fails and after it removes a record", async () => {
    const first = await startRun();
    await first.computing;
    const shown = await downloadCsv();
    expect(shown.map(([type, sourceId, , , , code]) => [type, sourceId, code])).toEqual([
      ["appointments", "a2", "missing_reference"],
      ["contact_details", "cu2", "invalid_phone"],
    ]);
    expect(await issuesOnThePage()).toEqual(shown);

    // cu2 (its invalid phone) leaves the source and cu3 comes with one: a run that fails changes nothing shown.
    const changed = sourceRows([sourceCustomer("cu1"), sourceCustomer("cu3", { phone: "n/a" })]);
    const failing = heldReader(changed);
    const second = await startRun(failing.reader);
    await untilContactsReplaced(second.runId);
    expect(await issuesBeingRewritten()).toBe(true);
    expect(await downloadCsv()).toEqual(shown);
    expect(await issuesOnThePage()).toEqual(shown);
    failing.release(new Error("the source went away"));
    await second.computing;
    expect(await statusOf(second.runId)).toBe("failed");
    expect(await downloadCsv()).toEqual(shown);
    expect(await issuesOnThePage()).toEqual(shown);

    const succeeding = heldReader(changed);
    const third = await startRun(succeeding.reader);
    await untilContactsReplaced(third.runId);
    expect(await issuesBeingRewritten()).toBe(true);
    expect(await downloadCsv()).toEqual(shown);
    succeeding.release();
    await third.computing;
    expect(await statusOf(third.runId)).toBe("succeeded");
    const after = await downloadCsv();
    expect(after.map(([type, sourceId, , , , code]) => [type, sourceId, code])).toEqual([
      ["appointments", "a2", "missing_reference"],
      ["contact_details", "cu3", "invalid_phone"],
    ]);
    expect(await issuesOnThePage()).toEqual(after);
  });

  it("has nothing to download while a location's first run is in flight or after it failed", async () => {
    const reader = createArraySourceReader(sourceRows());
    const read = reader.read.bind(reader);
    let releaseContacts!: () => void;
    const contactsHeld = new Promise<void>((resolve) => (releaseContacts = resolve));
    // A first run commits each type on its own: hold it once some are stored.
    reader.read = async function* (resource, params, options) {
      if (resource === "appointments") {
        await contactsHeld;
        throw new Error("the source went away");
      }
      yield* read(resource, params, options);
    };
    const run = await startRun(reader);
    await untilContactsReplaced(run.runId);
    await expect(downloadCsv()).rejects.toThrow(DomainError);
    releaseContacts();
    await run.computing;
    expect(await statusOf(run.runId)).toBe("failed");
    await expect(downloadCsv()).rejects.toThrow(DomainError);
  });
});

describe("spreadsheetSafe", () => {
  it("quotes every cell a spreadsheet would read as a formula", () => {
    for (const value of ["=1+1", "+1", "-1", "@SUM(A1)", " =1+1", "  +1", "\n=1+1", "\t1", "\r1", "＝1+1", " ＋1", "－1", "＠A1"])
      expect(spreadsheetSafe(value), JSON.stringify(value)).toBe(`'${value}`);
  });

  it("leaves every other cell as it is", () => {
    for (const value of ["Grace", "a=b", "1-2", "mail@example.com", " Grace", "", "(030) 123"])
      expect(spreadsheetSafe(value), JSON.stringify(value)).toBe(value);
    expect(spreadsheetSafe(null)).toBe("");
    expect(spreadsheetSafe(undefined)).toBe("");
  });
});
