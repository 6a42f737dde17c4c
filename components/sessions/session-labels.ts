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

/** Who started a session: the requester, else "the schedule" for a scheduled one, else "—" (nobody is known). */
export function requesterLabel(session: { trigger: string; requestedByEmail: string | null }): string {
  return session.requestedByEmail ?? (session.trigger === "schedule" ? "the schedule" : "—");
}

/** "Replay of Appointments, 2026-03-01 – 2026-03-31": what a scoped replay sent again. */
export function replayLabel(replay: { steps: readonly string[]; from: string | null; to: string | null }): string {
  const range = replay.from || replay.to ? `, ${replay.from ?? "the first"} – ${replay.to ?? "6 months ahead"}` : "";
  return `Replay of ${replay.steps.map(stepLabel).join(", ")}${range}`;
}

export function stepLabel(name: string): string {
  return stepLabels[name as SyncStepName] ?? name;
}
