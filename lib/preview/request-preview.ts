import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "@/db/client";
import { previewRuns } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { OperationActor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { sendJob } from "@/lib/jobs/job-sender";
import { getLocationRow } from "@/lib/locations/get-location";
import { computePreviewJob } from "./compute-preview-job";

/** A run in flight longer than this lost its worker for good (the job expires after an hour and is retried twice). */
const ABANDONED_AFTER_MS = 4 * 60 * 60 * 1000;

export interface RequestPreviewOptions {
  /** Map every source row again, whatever the last run mapped (support's "Rebuild preview"). */
  rebuild?: boolean;
  now?: Date;
}

/**
 * Starts a preview run in the background, or returns the one in flight: one per
 * location, whoever asks (the partial unique index decides between racing requests).
 * A rebuild is not folded into a run in flight that is no rebuild: that one is refused until it ends.
 * Checks no permission: refreshPreview (a person's Refresh / Rebuild) and ensureFreshPreview (opening the page) do.
 */
export async function requestPreview(db: Database, locationId: string, requestedByEmail: string | null, options: RequestPreviewOptions = {}) {
  const { rebuild = false, now = new Date() } = options;
  await getLocationRow(db, locationId);
  await db
    .update(previewRuns)
    .set({ status: "failed", error: "The run was abandoned by its worker.", finishedAt: now })
    .where(
      and(
        eq(previewRuns.locationId, locationId),
        inArray(previewRuns.status, ["queued", "running"]),
        lt(previewRuns.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
      ),
    );
  // Twice: the run in flight may finish between our insert and our look-up.
  for (let attempt = 0; attempt < 2; attempt++) {
    const [created] = await db.insert(previewRuns).values({ locationId, requestedByEmail, rebuild }).onConflictDoNothing().returning();
    if (created) {
      await sendJob(computePreviewJob, { runId: created.id });
      return created;
    }
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

/** "Refresh preview", or with `rebuild` "Rebuild preview": `actor` must be allowed ("preview.refresh" / "preview.rebuild"). */
export async function refreshPreview(db: Database, actor: OperationActor, locationId: string, options: { rebuild: boolean }) {
  await assertCanAtLocation(db, actor, options.rebuild ? "preview.rebuild" : "preview.refresh", locationId);
  return requestPreview(db, locationId, actor.email, { rebuild: options.rebuild });
}
