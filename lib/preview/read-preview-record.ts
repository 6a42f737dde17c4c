import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { assertCanAtLocation } from "@/lib/auth/location-access";
import type { Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import type { SourceReader } from "@/lib/source/source-reader";
import type { PreviewRecordType } from "./preview-plan";
import { getPreviewRecord } from "./read-preview";
import { readSourceRows } from "./read-source-row";
import { labelsOf } from "./record-labels";

/**
 * One record for the preview's side panel ("preview.view"): the mapped record with its issues and label, beside the
 * source rows it came from, read from the source now. A source that cannot be read leaves `sourceRows` null with why.
 */
export async function readPreviewRecord(
  ctx: OperationContext<Actor> & { reader: SourceReader },
  input: { locationId: string; type: PreviewRecordType; seq: number },
) {
  await assertCanAtLocation(ctx.db, ctx.actor, "preview.view", input.locationId);
  const [location] = await ctx.db.select({ sourceKey: locations.sourceKey }).from(locations).where(eq(locations.id, input.locationId));
  const record = location ? await getPreviewRecord(ctx.db, input.locationId, input.type, input.seq) : null;
  if (!location || !record) throw new DomainError("NOT_FOUND", "This record is not in the location's preview.");
  const [label] = await labelsOf(ctx.db, input.locationId, input.type, [record]);
  let sourceRows: Record<string, unknown>[] | null = null;
  let sourceError: string | null = null;
  try {
    sourceRows = location.sourceKey ? await readSourceRows(ctx.reader, location.sourceKey, input.type, record.sourceId) : [];
  } catch {
    // The reader's own error may name the source's host: the panel says only that it failed.
    sourceError = "The source could not be read right now; the mapped record is what the last preview read.";
  }
  return {
    record: {
      seq: record.seq,
      sourceId: record.sourceId,
      recordKey: record.recordKey,
      status: record.status,
      excludedReason: record.excludedReason,
      diff: record.diff,
      payload: record.payload,
      issues: record.issues,
      label: label!,
    },
    sourceRows,
    sourceError,
  };
}
