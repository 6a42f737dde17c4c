import { LocationId } from "@/lib/locations/location-inputs";
import { z } from "zod";
import { DomainError } from "@/lib/errors/domain-error";
import { fieldProblemsOf } from "@/lib/http/problem";
import { previewRecordTypes, type PreviewRecordType } from "./preview-plan";
import { safeText } from "@/lib/validation/safe-text";
import { RootCauseId } from "./root-cause-id";

/** preview_records.seq is a PostgreSQL integer: a larger position names no record (and would fail the query). */
const postgresIntegerMax = 2_147_483_647;

export const PreviewRecordTypeInput = z.enum(previewRecordTypes as [PreviewRecordType, ...PreviewRecordType[]]);

export const previewSorts = ["source", "key", "status"] as const;
/** `removed`: records the upstream holds that the source no longer has (or no longer sends), read from synced_records. */
export const previewStatusFilters = ["valid", "warning", "error", "excluded", "new", "changed", "unchanged", "removed"] as const;
export const PREVIEW_PAGE_SIZE = 50;

/** The preview page's URL state: which tab, search, filter, cause, sort, page and the record opened. */
export const PreviewQuery = z.object({
  type: PreviewRecordTypeInput.default("calendars"),
  q: safeText().trim().max(200).optional(),
  status: z.enum(previewStatusFilters).optional(),
  sort: z.enum(previewSorts).default("source"),
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  record: z.coerce.number().int().min(0).max(postgresIntegerMax).optional(),
  /** Only the records one root cause affects (lib/preview/root-causes.ts). */
  cause: RootCauseId.optional(),
});
export type PreviewQuery = z.infer<typeof PreviewQuery>;

/** POST /api/locations/[locationId]/preview: an empty body (or {}) refreshes, `{ "rebuild": true }` rebuilds. */
export const RequestPreviewInput = z.strictObject({ rebuild: z.boolean().default(false) });
export type RequestPreviewInput = z.infer<typeof RequestPreviewInput>;

/** The request's body text → its input: empty means a refresh; anything but such a JSON object is INVALID (422). */
export function requestPreviewInputOf(body: string): RequestPreviewInput {
  let value: unknown = {};
  if (body.trim() !== "") {
    try {
      value = JSON.parse(body);
    } catch {
      throw new DomainError("INVALID", "The body is not valid JSON.", [{ field: "(body)", reason: "not valid JSON" }]);
    }
  }
  const parsed = RequestPreviewInput.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields = fieldProblemsOf(parsed.error);
  throw new DomainError("INVALID", fields.map((field) => `${field.field}: ${field.reason}`).join("; "), fields);
}

/** One record of the preview by its position (the side panel): the location, the record's seq and its type. */
export const PreviewRecordParams = LocationId.extend({ seq: z.coerce.number().int().min(0).max(postgresIntegerMax) });
export const PreviewRecordQuery = z.object({ type: PreviewRecordTypeInput });
