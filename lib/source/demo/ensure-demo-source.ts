import { inArray, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { demoSourceLocations } from "@/db/schema";
import { demoLocations } from "@/lib/runtime/seed-demo";
import { generateDemoSource } from "./generate-demo-source";

/** Small enough to generate at start-up in about a second. */
export const embeddedDemoSourceSize = { contacts: 300, years: 2, seed: 1 } as const;

/**
 * Gives the embedded default's demo locations their management-system data, unless it exists.
 * If any of them lacks it, all are generated afresh, so the three stay one consistent data set.
 * Returns whether it generated.
 */
export async function ensureDemoSource(db: DatabaseOrTransaction): Promise<boolean> {
  const sourceKeys = demoLocations.map((location) => location.sourceKey);
  return db.transaction(async (tx) => {
    // Two processes starting at once: the second waits, then finds the data.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('demo_source.ensure'))`);
    const existing = await tx
      .select({ sourceKey: demoSourceLocations.sourceKey })
      .from(demoSourceLocations)
      .where(inArray(demoSourceLocations.sourceKey, sourceKeys));
    if (existing.length === sourceKeys.length) return false;
    await generateDemoSource(tx, { locations: sourceKeys.length, sourceKeys, ...embeddedDemoSourceSize });
    return true;
  });
}
