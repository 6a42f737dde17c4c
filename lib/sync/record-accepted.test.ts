import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locations, syncedRecords } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { recordSentRecords } from "./record-accepted";

const testDb = await useTestDatabase();
const { db } = testDb;

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
        locationId,
        type: "appointments",
        replaced: march,
        records: [
          { key: "a1", hash: "h1", date: "2026-03-02" },
          { key: "a2", hash: "h2", date: "2026-03-03" },
        ],
        mayBeRecorded: false,
      }),
    );
    // a2 moved to April: a key that may be recorded already is upserted, and moves.
    await db.transaction((tx) =>
      recordSentRecords(tx, {
        locationId,
        type: "appointments",
        replaced: april,
        records: [
          { key: "a2", hash: "h2b", date: "2026-04-07" },
          { key: "a3", hash: "h3", date: "2026-04-08" },
        ],
        mayBeRecorded: true,
      }),
    );
    expect(await recorded(locationId)).toEqual([
      ["a1", "h1", "2026-03-02"],
      ["a2", "h2b", "2026-04-07"],
      ["a3", "h3", "2026-04-08"],
    ]);
  });
});
