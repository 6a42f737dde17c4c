import { violatedUniqueIndex } from "@/db/unique-violation";
import { and, eq, ne } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { DomainError } from "@/lib/errors/domain-error";

const UPSTREAM_KEY_CONSTRAINT = "locations_upstream_key";

function conflictWith(name: string): DomainError {
  return new DomainError("CONFLICT", `This upstream location ID is already used by location ${name}.`, [
    { field: "upstreamLocationId", reason: `is already used by location ${name}` },
  ]);
}

/** One upstream location belongs to one of our locations per environment. */
export async function assertUpstreamLocationIdFree(
  db: DatabaseOrTransaction,
  key: { environment: EnvironmentName; upstreamLocationId: string; exceptLocationId?: string },
): Promise<void> {
  const [holder] = await db
    .select({ name: locations.name })
    .from(locations)
    .where(
      and(
        eq(locations.environment, key.environment),
        eq(locations.upstreamLocationId, key.upstreamLocationId),
        key.exceptLocationId ? ne(locations.id, key.exceptLocationId) : undefined,
      ),
    )
    .limit(1);
  if (holder) throw conflictWith(holder.name);
}

/** A concurrent insert can pass the check above; the unique index then refuses it. Maps that to the same conflict. */
export function upstreamKeyViolation(error: unknown): DomainError | null {
  if (violatedUniqueIndex(error) !== UPSTREAM_KEY_CONSTRAINT) return null;
  return new DomainError("CONFLICT", "This upstream location ID is already used by another location.", [
    { field: "upstreamLocationId", reason: "is already used by another location" },
  ]);
}
