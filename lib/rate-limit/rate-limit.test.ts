import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimitBuckets } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { pruneRateLimitBuckets, releaseRateLimitSlot, reserveRateLimitSlot, reserveRateLimitSlots } from "./rate-limit";

const { db } = await useTestDatabase();
const rule = { limit: 5, windowSeconds: 60 };

async function countOf(key: string) {
  const [row] = await db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
  return row?.count ?? 0;
}

describe("rate limit slots", () => {
  it("gives exactly the limit's number of slots to 40 parallel callers, and counts nothing for the refused", async () => {
    const slots = await Promise.all(Array.from({ length: 40 }, () => reserveRateLimitSlot(db, "parallel", rule)));
    expect(slots.filter(Boolean)).toHaveLength(rule.limit);
    expect(await countOf("parallel")).toBe(rule.limit);
  });

  it("starts a new window once the old one has ended", async () => {
    const start = new Date("2026-01-01T10:00:00Z");
    for (let i = 0; i < rule.limit; i++) expect(await reserveRateLimitSlot(db, "window", rule, start)).not.toBeNull();
    expect(await reserveRateLimitSlot(db, "window", rule, new Date(start.getTime() + 59_000))).toBeNull();
    expect(await reserveRateLimitSlot(db, "window", rule, new Date(start.getTime() + 60_000))).not.toBeNull();
    expect(await countOf("window")).toBe(1);
  });

  it("a released slot can be taken again; a slot of an ended window is not given back to the new one", async () => {
    const start = new Date("2026-01-01T10:00:00Z");
    const first = (await reserveRateLimitSlot(db, "release", rule, start))!;
    await releaseRateLimitSlot(db, first);
    expect(await countOf("release")).toBe(0);
    const old = (await reserveRateLimitSlot(db, "release", rule, start))!;
    await reserveRateLimitSlot(db, "release", rule, new Date(start.getTime() + 61_000));
    await releaseRateLimitSlot(db, old);
    expect(await countOf("release")).toBe(1);
  });

  it("takes a slot from every counter or from none, naming the full one", async () => {
    for (let i = 0; i < rule.limit; i++) await reserveRateLimitSlot(db, "full", rule);
    const refused = await reserveRateLimitSlots(db, [
      { key: "free", rule },
      { key: "full", rule },
    ]);
    expect(refused).toMatchObject({ reserved: false, refusedKey: "full" });
    expect(refused.reserved === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await countOf("free")).toBe(0);
    expect(await countOf("full")).toBe(rule.limit);
  });

  it("prunes buckets whose window ended more than a day ago, and keeps the others", async () => {
    const now = new Date("2026-06-01T12:00:00Z");
    await reserveRateLimitSlot(db, "old", rule, new Date(now.getTime() - 25 * 60 * 60 * 1000));
    await reserveRateLimitSlot(db, "recent", rule, new Date(now.getTime() - 60 * 60 * 1000));
    expect(await pruneRateLimitBuckets(db, now)).toBeGreaterThanOrEqual(1);
    expect(await countOf("old")).toBe(0);
    expect(await countOf("recent")).toBe(1);
  });
});
