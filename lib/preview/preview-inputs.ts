import { z } from "zod";
import { previewRecordTypes, type PreviewRecordType } from "./preview-plan";

export const PreviewRecordTypeInput = z.enum(previewRecordTypes as [PreviewRecordType, ...PreviewRecordType[]]);

export const previewSorts = ["source", "key", "status"] as const;
export const previewStatusFilters = ["valid", "warning", "error", "excluded", "new", "changed", "unchanged"] as const;
export const PREVIEW_PAGE_SIZE = 50;

/** The preview page's URL state: which tab, search, filter, sort, page and the record opened. */
export const PreviewQuery = z.object({
  type: PreviewRecordTypeInput.default("calendars"),
  q: z.string().trim().max(200).optional(),
  status: z.enum(previewStatusFilters).optional(),
  sort: z.enum(previewSorts).default("source"),
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  record: z.coerce.number().int().min(0).optional(),
});
export type PreviewQuery = z.infer<typeof PreviewQuery>;
