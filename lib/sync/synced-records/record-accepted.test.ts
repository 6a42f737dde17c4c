import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { recordSentRecords, SentRecords } from "./record-accepted";

const testDb = await useTestDatabase();
const { db } = testDb;

function sent(locationId: string, records: { key: string; hash: string; date: string | null }[]) {
  const staged = new SentRecords(locationId, "appointments");
  for (const record of records) staged.add(record.key, record.hash, record.date);
  return staged;
}

async function recorded(locationId: string) {
  const rows = await db
    .select({ key: syncedRecords.recordKey, hash: syncedRecords.contentHash, date: syncedRecords.appointmentDate })
    .from(syncedRecords)
    .where(and(eq(syncedRecords.locationId, locationId), eq(syncedRecords.recordType, "appointments")))
    .orderBy(asc(syncedRecords.recordKey));
  return rows.map((row) => [row.key, row.hash, row.date]);
}

describe("recording what the upstream accepted of records sent from the source", () => {
  it("copies the keys of a first sync, and upserts where a key may be recorded under another date", async () => {
    const [location] = await db.insert(locations).values({ name: "Recording salon" }).returning();
    const locationId = location!.id;
    const march = { kind: "dates", recordType: "appointments", startDate: "2026-03-01", endDate: "2026-03-31" } as const;
    const april = { kind: "dates", recordType: "appointments", startDate: "2026-04-01", endDate: "2026-04-30" } as const;
    await db.transaction((tx) =>
      recordSentRecords(tx, {
        replaced: march,
        records: sent(locationId, [
          { key: "a1", hash: "h1", date: "2026-03-02" },
          { key: "a2", hash: "h2", date: "2026-03-03" },
        ]),
        mayBeRecorded: false,
      }),
    );
    // a2 moved to April: a key that may be recorded already is upserted, and moves. A key keeps a tab and a backslash.
    await db.transaction((tx) =>
      recordSentRecords(tx, {
        replaced: april,
        records: sent(locationId, [
          { key: "a2", hash: "h2b", date: "2026-04-07" },
          { key: "a3\t\\", hash: "h3", date: "2026-04-08" },
        ]),
        mayBeRecorded: true,
      }),
    );
    expect(await recorded(locationId)).toEqual([
      ["a1", "h1", "2026-03-02"],
      ["a2", "h2b", "2026-04-07"],
      ["a3\t\\", "h3", "2026-04-08"],
    ]);
  });
});
