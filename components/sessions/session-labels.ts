import type { SyncStepName } from "@/lib/sync/step-names";

export const stepLabels: Record<SyncStepName, string> = {
  open: "Open",
  calendars: "Calendars",
  service_categories: "Service categories",
  services: "Services",
  contact_details: "Contact details",
  vehicles: "Vehicles",
  appointments: "Appointments",
  openings: "Openings",
  close: "Close",
};

export const triggerLabels: Record<string, string> = { schedule: "Schedule", manual: "Manual", resume: "Resume", cli: "CLI" };

export const sessionStatusLabels: Record<string, string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  cancelled: "Cancelled",
};

export function stepLabel(name: string): string {
  return stepLabels[name as SyncStepName] ?? name;
}
