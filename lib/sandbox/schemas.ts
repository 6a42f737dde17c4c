// The sandbox validates with the client's own schemas (lib/upstream): one definition of every shape.
export { LocalDate } from "@/lib/upstream/formats";
export { parseUpstreamDateTime, type DateTimeStyle } from "@/lib/upstream/formats";
export { recordKeyOf, recordSchemasOf } from "@/lib/upstream/records";
export {
  AccessTokenRequest,
  BatchSyncBody,
  BulkUploadRequestBody,
  DateRangeImportBody,
  LocationAccessTokenRequest,
  OpeningsImportBody,
  UpdateManagementSystemBody,
} from "@/lib/upstream/endpoints";
