import { z } from "zod";
import { ExternalId, CalendarRecord, ServiceCategoryRecord, ServiceRecord } from "./records";
import { LocalDate } from "./formats";

// Request bodies are strict (we send exactly these fields). Of a response we require only what the spec shows
// (`access_token`, `put_data_url`); anything beside it, and every body the spec does not show, is not relied on.

/** POST /access_tokens (spec 4.1). */
export const AccessTokenRequest = z.strictObject({
  email: z.string(),
  password: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
});
export type AccessTokenRequest = z.infer<typeof AccessTokenRequest>;

/** POST /access_tokens/locations/{location_id} (spec 4.1). */
export const LocationAccessTokenRequest = z.strictObject({ client_id: z.string(), client_secret: z.string() });
export type LocationAccessTokenRequest = z.infer<typeof LocationAccessTokenRequest>;

/** Spec 4.1 shows `access_token`: required; other fields are ignored. */
/**
 * A token is sent back as `Authorization: Bearer <token>`: one that an HTTP header cannot carry as it is (a control
 * character such as a line break, a character beyond one byte, white space at either end) could never be used.
 */
const headerSafeToken = z
  .string()
  .regex(/^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/, "is not a value an HTTP header can carry");
export const AccessTokenResponse = z.object({ access_token: headerSafeToken });
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

// A display value the upstream may or may not send: a short non-empty string, else nothing.
const displayText = z.string().trim().min(1).max(320).optional().catch(undefined);

/**
 * GET /users/me: the spec shows no body, so nothing in it is relied on. Any 2xx means the token works;
 * `id`, `email` and `name` are kept for display when the body is a JSON object holding them as strings.
 */
export const CurrentUserResponse = z.object({ id: displayText, email: displayText, name: displayText }).catch({});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

/** PUT /locations/{location_id}/update_management_system (spec 3, 4.2). */
export const UpdateManagementSystemBody = z.strictObject({
  management_system: z.string().min(1),
  management_system_sync_in_progress: z.boolean(),
});
export type UpdateManagementSystemBody = z.infer<typeof UpdateManagementSystemBody>;

export function batchSyncBodyOf<Record extends z.ZodType>(record: Record) {
  return z.strictObject({ data: z.array(record) });
}

export const CalendarsSyncBody = batchSyncBodyOf(CalendarRecord);
export type CalendarsSyncBody = z.infer<typeof CalendarsSyncBody>;
export const ServiceCategoriesSyncBody = batchSyncBodyOf(ServiceCategoryRecord);
export type ServiceCategoriesSyncBody = z.infer<typeof ServiceCategoriesSyncBody>;
export const ServicesSyncBody = batchSyncBodyOf(ServiceRecord);
export type ServicesSyncBody = z.infer<typeof ServicesSyncBody>;

/** The `{ data: [...] }` shape of the three batch_sync endpoints, records not yet checked. */
export const BatchSyncBody = z.strictObject({ data: z.array(z.unknown()) });
export type BatchSyncBody = z.infer<typeof BatchSyncBody>;

/** Contact details and vehicles POST: the spec shows no body, we send `{}`. */
export const BulkUploadRequestBody = z.strictObject({});
export type BulkUploadRequestBody = z.infer<typeof BulkUploadRequestBody>;

function checkDateRange(range: { start_date: string; end_date: string }, context: z.RefinementCtx): void {
  // YYYY-MM-DD strings order like the dates they name.
  if (range.start_date > range.end_date) context.addIssue({ code: "custom", path: ["end_date"], message: "must not be before start_date" });
}

/** POST …/appointments/batch_sync_appointments: inclusive local dates of the location. */
export const DateRangeImportBody = z.strictObject({ start_date: LocalDate, end_date: LocalDate }).superRefine(checkDateRange);
export type DateRangeImportBody = z.infer<typeof DateRangeImportBody>;

/** POST …/openings/batch_sync_openings: one service per request (spec 4.4.5). */
export const OpeningsImportBody = z
  .strictObject({ start_date: LocalDate, end_date: LocalDate, service_external_id: ExternalId })
  .superRefine(checkDateRange);
export type OpeningsImportBody = z.infer<typeof OpeningsImportBody>;

/** Spec 4.2 shows `put_data_url` at the top level of the bulk POSTs' answers: required; other fields are ignored. */
export const PutDataUrlResponse = z.object({ put_data_url: z.url() });
export type PutDataUrlResponse = z.infer<typeof PutDataUrlResponse>;
