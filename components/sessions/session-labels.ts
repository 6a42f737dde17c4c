import type { SyncStepName } from "@/lib/sync/step-names";

export const stepLabels: Record<SyncStepName, string> = {
  open: "Open",
  calendars: "Calendars",
  service_categories: "Service categories",
  services: "Services",
  contact_details: "Contacts",
  vehicles: "Vehicles",
  appointments: "Appointments",
  openings: "Openings",
  close: "Close",
};

export const triggerLabels: Record<string, string> = { schedule: "Schedule", manual: "Manual", resume: "Resume", cli: "CLI" };

export function stepLabel(name: string): string {
  return stepLabels[name as SyncStepName] ?? name;
}
