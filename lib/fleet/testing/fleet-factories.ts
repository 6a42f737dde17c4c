import { randomUUID } from "node:crypto";
import type { Database } from "@/db/client";
import { locationMembers, locations, syncSessions, syncSteps, users } from "@/db/schema";
import { syncStepNames, type SyncStepName } from "@/lib/sync/step-names";

type SessionStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";
type StepStatus = "pending" | "succeeded" | "failed" | "skipped";

export async function createFleetLocation(db: Database, values: Partial<typeof locations.$inferInsert> = {}) {
  const [location] = await db
    .insert(locations)
    .values({ name: `Salon ${randomUUID().slice(0, 8)}`, upstreamLocationId: randomUUID(), locationTokenEncrypted: "sealed-token", ...values })
    .returning();
  return location!;
}

export async function createOwnerOf(db: Database, locationId: string) {
  const [owner] = await db
    .insert(users)
    .values({ email: `owner-${randomUUID().slice(0, 8)}@example.test`, role: "owner" })
    .returning();
  await db.insert(locationMembers).values({ locationId, userId: owner!.id });
  return { id: owner!.id, role: "owner" as const };
}

/** A session that started at `createdAt` and, unless in flight, ended `durationMs` later; its steps ended with it. */
export async function createFleetSession(
  db: Database,
  input: { locationId: string; status: SessionStatus; createdAt: Date; durationMs?: number; steps?: Partial<Record<SyncStepName, StepStatus>> },
) {
  const finishedAt =
    input.status === "queued" || input.status === "running" ? null : new Date(input.createdAt.getTime() + (input.durationMs ?? 60_000));
  const [session] = await db
    .insert(syncSessions)
    .values({
      locationId: input.locationId,
      environment: "staging",
      trigger: "manual",
      optionalSteps: [],
      status: input.status,
      createdAt: input.createdAt,
      startedAt: input.createdAt,
      finishedAt,
    })
    .returning();
  const steps = Object.entries(input.steps ?? {}) as [SyncStepName, StepStatus][];
  if (steps.length) {
    await db.insert(syncSteps).values(
      steps.map(([name, status]) => ({
        sessionId: session!.id,
        name,
        position: syncStepNames.indexOf(name),
        status,
        finishedAt: status === "succeeded" || status === "failed" ? (finishedAt ?? input.createdAt) : null,
      })),
    );
  }
  return session!;
}
