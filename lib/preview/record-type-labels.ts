import type { PreviewRecordType } from "./preview-plan";

/** Names people read, for tabs and progress (no runtime imports: client components use it). */
export const recordTypeLabels: Record<PreviewRecordType, string> = {
  calendars: "Calendars",
  service_categories: "Service categories",
  services: "Services",
  contact_details: "Contacts",
  vehicles: "Vehicles",
  appointments: "Appointments",
  openings: "Openings",
};
