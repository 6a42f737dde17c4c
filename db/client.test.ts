import { describe, expect, it } from "vitest";
import { useTestDatabase } from "./testing/test-database";
import { connectDatabase, processPoolSize } from "./client";

const testDb = await useTestDatabase();

/** Resolves once `count` holders have called `arrive`: every holder then holds its connections at the same time. */
function barrier(count: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    async arrive() {
      if (++arrived === count) open();
      await opened;
    },
  };
}

describe("processPoolSize", () => {
  it("lets every session hold its transaction and a cursor and still run a query, while each other job holds one", async () => {
    const sessions = 2;
    // The jobs other than sync sessions, one at a time each; a preview run holds a transaction and a cursor.
    const jobsHolding = 10;
    const { sql, close } = connectDatabase(testDb.url, { max: processPoolSize(sessions) });
    const everyoneHolding = barrier(sessions + jobsHolding);
    try {
      const session = () =>
        sql.begin(async (tx) => {
          await tx`select 1`;
          for await (const [row] of sql`select generate_series(1, 3) as n`.cursor(1)) {
            if (row!.n !== 1) continue;
            await everyoneHolding.arrive();
            // Progress, a lease renewal: a short query beside the two held.
            await sql`select 1`;
          }
        });
      const job = () =>
        sql.begin(async (tx) => {
          await tx`select 1`;
          await everyoneHolding.arrive();
        });
      const all = Promise.all([...Array.from({ length: sessions }, session), ...Array.from({ length: jobsHolding }, job)]);
      const stuck = new Promise<string>((resolve) => setTimeout(() => resolve("waiting for each other"), 10_000).unref());
      await expect(Promise.race([all.then(() => "done"), stuck])).resolves.toBe("done");
    } finally {
      await close();
    }
  });
});
