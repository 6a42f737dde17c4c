import { and, desc, eq, inArray } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { previewRuns } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import { isSystemActor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { sendJob } from "@/lib/jobs/job-sender";
import { getLocationRow } from "@/lib/locations/get-location";
import { assertNotArchived } from "@/lib/locations/location-lifecycle";
import type { OperationContext } from "@/lib/operations/context";
import { computePreviewJob } from "./compute-preview-job";
import { failStoppedPreviewRuns } from "./preview-run-lease";

export interface RequestPreviewInput {
  locationId: string;
  /** Map every source row again, whatever the last run mapped (support's "Rebuild preview"). */
  rebuild?: boolean;
  /** Who the run names as having asked; default the actor's email (opening the page passes null for a viewer who may not refresh). */
  requestedByEmail?: string | null;
}

/**
 * "Refresh preview", or with `rebuild` "Rebuild preview" (the actor must be allowed "preview.refresh" /
 * "preview.rebuild" at the location): starts a preview run in the background, or returns the one in flight: one per
 * location, whoever asks (the partial unique index decides between racing requests); one whose process stopped (its
 * lease expired: lib/preview/preview-run-lease.ts) is failed first.
 * A rebuild is not folded into a run in flight that is no rebuild: that one is refused until it ends.
 */
export async function requestPreview(ctx: OperationContext, input: RequestPreviewInput): Promise<PreviewRun> {
  await assertCanAtLocation(ctx.db, ctx.actor, input.rebuild ? "preview.rebuild" : "preview.refresh", input.locationId);
  // A person's refresh or rebuild changes an archived location; the system's own runs (opening the page) read it only.
  if (!isSystemActor(ctx.actor)) assertNotArchived(await getLocationRow(ctx.db, input.locationId));
  return queuePreviewRun(ctx.db, { ...input, requestedByEmail: input.requestedByEmail === undefined ? ctx.actor.email : input.requestedByEmail });
}

type PreviewRun = typeof previewRuns.$inferSelect;

async function queuePreviewRun(db: DatabaseOrTransaction, input: RequestPreviewInput & { requestedByEmail: string | null }): Promise<PreviewRun> {
  const { locationId, requestedByEmail, rebuild = false } = input;
  await getLocationRow(db, locationId);
  await failStoppedPreviewRuns(db, locationId);
  // Twice: the run in flight may finish between our insert and our look-up.
  for (let attempt = 0; attempt < 2; attempt++) {
    // The run and its job commit together.
    const created = await db.transaction(async (tx) => {
      const [row] = await tx.insert(previewRuns).values({ locationId, requestedByEmail, rebuild }).onConflictDoNothing().returning();
      if (row) await sendJob(computePreviewJob, { runId: row.id }, { in: tx });
      return row;
    });
    if (created) return created;
    const [active] = await db
      .select()
      .from(previewRuns)
      .where(and(eq(previewRuns.locationId, locationId), inArray(previewRuns.status, ["queued", "running"])))
      .orderBy(desc(previewRuns.createdAt))
      .limit(1);
    if (active && rebuild && !active.rebuild) {
      throw new DomainError("CONFLICT", "A preview of this location is being computed right now; rebuild it when that run has finished.");
    }
    if (active) return active;
  }
  throw new Error("could not start or find a preview run");
}
