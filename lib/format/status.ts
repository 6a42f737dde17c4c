/**
 * The one status vocabulary of the dashboard, for sessions, steps, items, preview runs and preview records alike: each status's
 * label (sentence case) and tone. A status not listed reads as itself, capitalised, in neutral grey.
 */
export type StatusTone = "neutral" | "info" | "success" | "warning" | "danger";

export const statusVocabulary: Record<string, { label: string; tone: StatusTone }> = {
  pending: { label: "Pending", tone: "neutral" },
  queued: { label: "Queued", tone: "neutral" },
  running: { label: "Running", tone: "info" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  cancelled: { label: "Cancelled", tone: "warning" },
  skipped: { label: "Skipped", tone: "neutral" },
  // A preview record's state.
  valid: { label: "Valid", tone: "success" },
  warning: { label: "Warning", tone: "warning" },
  error: { label: "Error", tone: "danger" },
  excluded: { label: "Excluded", tone: "neutral" },
};

export function statusLabel(status: string): string {
  return statusVocabulary[status]?.label ?? status.charAt(0).toUpperCase() + status.slice(1).replaceAll("_", " ");
}

export function statusTone(status: string): StatusTone {
  return statusVocabulary[status]?.tone ?? "neutral";
}
