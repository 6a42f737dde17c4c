/** The steps of the fleet matrix, in protocol order (open and close are not data). */
export const matrixSteps = ["calendars", "service_categories", "services", "contact_details", "vehicles", "appointments", "openings"] as const;
export type MatrixStep = (typeof matrixSteps)[number];

export const matrixStepLabels: Record<MatrixStep, string> = {
  calendars: "Calendars",
  service_categories: "Categories",
  services: "Services",
  contact_details: "Contacts",
  vehicles: "Vehicles",
  appointments: "Appointments",
  openings: "Openings",
};

/**
 * How long a step's last success stays fresh. Openings cover only the next 72 hours, so a day
 * without them shows stale availability; contacts and appointments drive campaigns within days;
 * the catalogue changes rarely.
 */
export const freshForHours: Record<MatrixStep, number> = {
  calendars: 7 * 24,
  service_categories: 7 * 24,
  services: 7 * 24,
  contact_details: 48,
  vehicles: 7 * 24,
  appointments: 48,
  openings: 24,
};

export type CellState = "failed" | "stale" | "fresh" | "never" | "not_applicable";

export interface MatrixCell {
  step: MatrixStep;
  state: CellState;
  /** When the step last ended (succeeded or failed); null when it never did. */
  at: Date | null;
}

export function cellStateOf(step: MatrixStep, last: { status: "succeeded" | "failed"; at: Date } | null, automotive: boolean, now: Date): CellState {
  if (step === "vehicles" && !automotive) return "not_applicable";
  if (!last) return "never";
  if (last.status === "failed") return "failed";
  return now.getTime() - last.at.getTime() > freshForHours[step] * 3_600_000 ? "stale" : "fresh";
}

export const cellStateLabels: Record<CellState, string> = {
  failed: "failed",
  stale: "stale",
  fresh: "up to date",
  never: "never sent",
  not_applicable: "not used",
};
