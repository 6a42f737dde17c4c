import { z } from "zod";

// The shapes of GET /api/locations/[id]/preview/records and …/records/[seq]: the routes answer them, the page's
// queries parse them (lib/queries/preview-queries.ts). No server imports: client components use it.

export const RecordLabelView = z.object({ title: z.string(), detail: z.string().nullable(), startsAt: z.string().nullable() });

export const PreviewRecordItemView = z.object({
  seq: z.number(),
  sourceId: z.string(),
  recordKey: z.string().nullable(),
  status: z.string(),
  excludedReason: z.string().nullable(),
  diff: z.string().nullable(),
  issueCount: z.number(),
  payload: z.unknown(),
  label: RecordLabelView,
});
export type PreviewRecordItemView = z.infer<typeof PreviewRecordItemView>;

export const RemovedRecordView = z.object({
  recordKey: z.string(),
  syncedAt: z.string(),
  inSource: z.object({ seq: z.number(), status: z.string() }).nullable(),
});
export type RemovedRecordView = z.infer<typeof RemovedRecordView>;

/** A page of records; with `status=removed`, `removed` holds the page and `items` is empty. */
export const PreviewRecordsResponse = z.object({
  runId: z.string(),
  items: z.array(PreviewRecordItemView),
  removed: z.array(RemovedRecordView).nullable(),
  total: z.number(),
});
export type PreviewRecordsResponse = z.infer<typeof PreviewRecordsResponse>;

export const PreviewIssueView = z.object({
  severity: z.string(),
  field: z.string(),
  code: z.string(),
  reason: z.string(),
  original: z.string().nullable(),
});

/** One record for the side panel: what was mapped beside the source rows it came from. */
export const PreviewRecordDetailResponse = z.object({
  record: PreviewRecordItemView.omit({ issueCount: true }).extend({ issues: z.array(PreviewIssueView) }),
  sourceRows: z.array(z.record(z.string(), z.unknown())).nullable(),
  sourceError: z.string().nullable(),
});
export type PreviewRecordDetailResponse = z.infer<typeof PreviewRecordDetailResponse>;
