// The streaming checks decide exactly what the preview's SQL checks decide (lib/preview/cross-check-preview.ts) on
// the same records: statuses, payloads as sent, hashes, what was dropped, and every issue.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locations } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { MappingIssue } from "@/lib/mapping/mapping-types";
import { runChecks } from "@/lib/preview/cross-check-preview";
import { previewRecordTypes, type PreviewRecordType } from "@/lib/preview/preview-plan";
import { previewRowsOf, type MappedForPreview, type PreviewRecordRow } from "@/lib/preview/preview-row";
import { writePreviewBatch } from "@/lib/preview/write-preview-batch";
import { createRecordChecks, type CheckedRecord, type CrossCheckIssue } from "./cross-checks";

const testDb = await useTestDatabase();
const { db, sql } = testDb;

const key = fc.constantFrom("k1", "k2", "k3", "k 4", "é5");
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const outcome = fc.constantFrom("valid", "valid", "valid", "warning", "error", "excluded");

interface Generated {
  type: PreviewRecordType;
  sourceId: string;
  record: Record<string, unknown>;
  outcome: string;
  serviceExternalId?: string;
}

const payloadOf: Record<PreviewRecordType, fc.Arbitrary<Record<string, unknown>>> = {
  calendars: fc.record({ external_id: key, name: fc.string() }),
  service_categories: fc.record({ external_id: key, name: fc.string() }),
  services: fc.record(
    { external_id: key, service_category_external_id: maybe(key), calendar_external_ids: maybe(fc.array(key, { maxLength: 3 })) },
    { requiredKeys: ["external_id"] },
  ),
  contact_details: fc.record({ external_id: key, first_name: fc.string() }),
  vehicles: fc.record({ external_id: key, contact_detail_external_id: maybe(key) }, { requiredKeys: ["external_id"] }),
  appointments: fc.record(
    { external_id: key, contact_detail_external_id: maybe(key), service_external_id: maybe(key), calendar_external_id: maybe(key) },
    { requiredKeys: ["external_id"] },
  ),
  openings: fc.record(
    { calendar_external_id: maybe(key), start_at: fc.constantFrom("2026-03-11T10:00:00+01:00", "2026-03-11T11:00:00+01:00") },
    { requiredKeys: ["start_at"] },
  ),
};

const generatedOf = (type: PreviewRecordType): fc.Arbitrary<Generated> =>
  fc
    .record({ record: payloadOf[type], outcome, sourceId: fc.constantFrom("1", "2", " 3", "4"), service: key })
    .map(({ record, outcome, sourceId, service }) => ({
      type,
      sourceId,
      record,
      outcome,
      serviceExternalId: type === "openings" ? service : undefined,
    }));

const source = fc.tuple(...previewRecordTypes.map((type) => fc.array(generatedOf(type), { maxLength: 6 })));

function mappedOf(generated: Generated): MappedForPreview {
  const issues: MappingIssue[] =
    generated.outcome === "warning" || generated.outcome === "error"
      ? [{ severity: generated.outcome, field: "name", code: "test", reason: "generated", original: null }]
      : [];
  return {
    sourceId: generated.sourceId,
    record: generated.outcome === "error" ? null : generated.record,
    issues,
    excludedByRule: generated.outcome === "excluded" ? "canceled" : null,
    serviceExternalId: generated.serviceExternalId ?? null,
  };
}

/** What both sides are compared on. */
const comparable = (record: Pick<CheckedRecord, "status" | "payload" | "content_hash" | "dropped_references" | "issue_count">) => ({
  status: record.status,
  payload: record.payload,
  content_hash: record.content_hash,
  dropped_references: record.dropped_references,
  issue_count: record.issue_count,
});

async function checkedBySql(locationId: string, rows: PreviewRecordRow[]) {
  await sql`delete from preview_issues where location_id = ${locationId}`;
  await sql`delete from preview_records where location_id = ${locationId}`;
  await writePreviewBatch(db, rows, []);
  await runChecks(db, locationId, "all");
  const records = await sql<(CheckedRecord & { seq: number })[]>`
    select record_type, seq, status, payload, content_hash, dropped_references, issue_count from preview_records where location_id = ${locationId}`;
  const issues = await sql<(CrossCheckIssue & { record_type: string; seq: number })[]>`
    select record_type, seq, severity, field, code, reason, original from preview_issues where location_id = ${locationId}`;
  return { records, issues };
}

const byRecord = (type: string, seq: number) => `${type}#${seq}`;
const sortIssues = (issues: CrossCheckIssue[]) => [...issues].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe("streaming record checks", () => {
  it("decide what the SQL checks decide, record for record", async () => {
    const [location] = await db.insert(locations).values({ name: "Checks" }).returning();
    const owner = { locationId: location!.id, runId: randomUUID() };
    await fc.assert(
      fc.asyncProperty(source, async (perType) => {
        let seq = 0;
        const rows = perType.flatMap((generated) => generated.map((one) => previewRowsOf(owner, one.type, seq++, mappedOf(one)).record));
        const expected = await checkedBySql(owner.locationId, rows);

        const usable = new Set<string>();
        const checks = createRecordChecks((type, targetKey) => usable.has(`${type}|${targetKey}`));
        const actualRecords = new Map<string, ReturnType<typeof comparable>>();
        const actualIssues = new Map<string, CrossCheckIssue[]>();
        for (const row of rows) {
          const record: CheckedRecord = { ...row, payload: row.payload && JSON.parse(JSON.stringify(row.payload)), dropped_references: null };
          const issues = checks.check(record);
          if ((record.status === "valid" || record.status === "warning") && record.record_key !== null)
            usable.add(`${record.record_type}|${record.record_key}`);
          actualRecords.set(byRecord(row.record_type, row.seq), comparable(record));
          actualIssues.set(byRecord(row.record_type, row.seq), issues);
        }

        for (const row of expected.records)
          expect(actualRecords.get(byRecord(row.record_type, row.seq)), byRecord(row.record_type, row.seq)).toEqual(comparable(row));
        const expectedIssues = new Map<string, CrossCheckIssue[]>();
        for (const { record_type, seq, ...issue } of expected.issues)
          expectedIssues.set(byRecord(record_type, seq), [...(expectedIssues.get(byRecord(record_type, seq)) ?? []), issue]);
        for (const [record, issues] of actualIssues) expect(sortIssues(issues), record).toEqual(sortIssues(expectedIssues.get(record) ?? []));
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
