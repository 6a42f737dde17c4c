import type { ApiCall } from "./api";
import * as api from "./api";

export interface SandboxEndpoint {
  name: string;
  method: "GET" | "POST" | "PUT";
  /** Path after `/v1`, with `:location_id` placeholders. */
  pattern: RegExp;
  handle: (call: ApiCall) => Promise<Response>;
}

const location = "/locations/(?<location_id>[^/]+)";

// Names are what fault injection targets (plus "upload" for upload addresses).
export const sandboxEndpoints: SandboxEndpoint[] = [
  { name: "access_tokens", method: "POST", pattern: /^\/access_tokens$/, handle: api.issueUserToken },
  { name: "location_access_tokens", method: "POST", pattern: new RegExp(`^/access_tokens${location}$`), handle: api.issueLocationToken },
  { name: "users_me", method: "GET", pattern: /^\/users\/me$/, handle: api.describeCurrentUser },
  {
    name: "update_management_system",
    method: "PUT",
    pattern: new RegExp(`^${location}/update_management_system$`),
    handle: api.updateManagementSystem,
  },
  { name: "batch_sync_calendars", method: "POST", pattern: new RegExp(`^${location}/calendars/batch_sync_calendars$`), handle: api.syncCalendars },
  {
    name: "batch_sync_service_categories",
    method: "POST",
    pattern: new RegExp(`^${location}/service_categories/batch_sync_service_categories$`),
    handle: api.syncServiceCategories,
  },
  { name: "batch_sync_services", method: "POST", pattern: new RegExp(`^${location}/services/batch_sync_services$`), handle: api.syncServices },
  {
    name: "contact_details",
    method: "POST",
    pattern: new RegExp(`^${location}/contact_details/batch_create_or_update$`),
    handle: api.requestContactUpload,
  },
  { name: "vehicles", method: "POST", pattern: new RegExp(`^${location}/vehicles/batch_create_or_update$`), handle: api.requestVehicleUpload },
  {
    name: "batch_sync_appointments",
    method: "POST",
    pattern: new RegExp(`^${location}/appointments/batch_sync_appointments$`),
    handle: api.requestAppointmentUpload,
  },
  {
    name: "batch_sync_openings",
    method: "POST",
    pattern: new RegExp(`^${location}/openings/batch_sync_openings$`),
    handle: api.requestOpeningUpload,
  },
];

export const sandboxFaultTargets = [...sandboxEndpoints.map((endpoint) => endpoint.name), "upload"];
