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

/** A record of each type in running text: "1 service", "281 appointments" (pluralize(count, ...recordNouns[type])). */
export const recordNouns: Record<PreviewRecordType, [one: string, other: string]> = {
  calendars: ["calendar", "calendars"],
  service_categories: ["service category", "service categories"],
  services: ["service", "services"],
  contact_details: ["contact", "contacts"],
  vehicles: ["vehicle", "vehicles"],
  appointments: ["appointment", "appointments"],
  openings: ["opening", "openings"],
};
