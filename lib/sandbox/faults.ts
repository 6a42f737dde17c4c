import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseOrTransaction } from "@/db/client";
import { sandboxFaults } from "@/db/schema";
import { FaultMode } from "./fault-inputs";

export { FaultMode };

export const InjectFaultInput = z
  .object({
    // An endpoint name (sandboxEndpointNames) or "upload".
    target: z.string().min(1),
    mode: FaultMode,
    count: z.number().int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
    seed: z.number().int().optional(),
  })
  .refine((input) => input.count !== undefined || input.probability !== undefined, {
    message: "give count, probability or both",
  });
export type InjectFaultInput = z.infer<typeof InjectFaultInput>;

/**
 * Arms a fault: the next `count` requests to `target` fail, or each one fails with
 * `probability` (seeded, so a test run is repeatable); with both, at most `count` fail.
 */
export async function injectFault(db: DatabaseOrTransaction, input: InjectFaultInput): Promise<{ id: number }> {
  const parsed = InjectFaultInput.parse(input);
  const [row] = await db
    .insert(sandboxFaults)
    .values({
      target: parsed.target,
      mode: parsed.mode,
      remaining: parsed.count ?? null,
      probability: parsed.probability ?? null,
      seed: parsed.seed ?? 1,
    })
    .returning({ id: sandboxFaults.id });
  return { id: row!.id };
}

/** The armed faults, oldest first (a spent one, count reached, is left out). */
export async function listFaults(db: DatabaseOrTransaction) {
  const rows = await db
    .select()
    .from(sandboxFaults)
    .where(sql`${sandboxFaults.remaining} is null or ${sandboxFaults.remaining} > 0`)
    .orderBy(sandboxFaults.id);
  return rows.map((row) => ({
    id: row.id,
    target: row.target,
    mode: FaultMode.parse(row.mode),
    remaining: row.remaining,
    probability: row.probability,
  }));
}

export async function clearFaults(db: DatabaseOrTransaction, input: { target?: string; id?: number } = {}): Promise<void> {
  if (input.id !== undefined) await db.delete(sandboxFaults).where(sql`${sandboxFaults.id} = ${input.id}`);
  else if (input.target) await db.delete(sandboxFaults).where(sql`${sandboxFaults.target} = ${input.target}`);
  else await db.delete(sandboxFaults);
}

// mulberry32 of (seed, draw): the n-th draw of a fault is the same in every run.
function drawUniform(seed: number, draw: number): number {
  let t = (seed ^ Math.imul(draw + 1, 0x9e3779b9)) >>> 0;
  t = (t + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Consumes the fault armed for `target`, if one fires for this request (atomic across processes). */
export async function takeFault(db: DatabaseOrTransaction, target: string): Promise<FaultMode | undefined> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: number; mode: unknown; remaining: number | null; probability: number | null; seed: number; draws: number }>(
      sql`select id, mode, remaining, probability, seed, draws from sandbox.faults
          where target = ${target} and (remaining is null or remaining > 0)
          order by id for update`,
    );
    for (const row of rows) {
      const fires = row.probability === null || drawUniform(row.seed, row.draws) < row.probability;
      await tx.execute(
        sql`update sandbox.faults set draws = draws + 1,
            remaining = case when ${fires} and remaining is not null then remaining - 1 else remaining end
            where id = ${row.id}`,
      );
      if (fires) return FaultMode.parse(row.mode);
    }
    return undefined;
  });
}

/** Cheap pre-check so requests with no armed faults skip the transaction. */
export async function hasArmedFaults(db: DatabaseOrTransaction): Promise<boolean> {
  const rows = await db.execute<{ one: number }>(sql`select 1 as one from sandbox.faults where remaining is null or remaining > 0 limit 1`);
  return rows.length > 0;
}
