import { pluralize } from "@/lib/format/plural";
import type { StatusTone } from "@/lib/format/status";
import { notSentOutcomeLabel } from "@/lib/sync/records-not-sent";
import type { LatestSession } from "./latest-sessions";

export interface OwnerSyncOutcome {
  label: string;
  tone: StatusTone;
  /** One plain sentence on what it means for the owner. */
  detail: string;
}

/** A location's last sync as its owner reads it: no step names, no sessions, what happened and what happens next. */
export function ownerSyncOutcome(latest: LatestSession | null, connected: boolean): OwnerSyncOutcome {
  if (!latest) {
    return {
      label: "Not synced yet",
      tone: "neutral",
      detail: connected ? "The first sync runs at the next scheduled time." : "Syncing starts once the location is connected.",
    };
  }
  switch (latest.status) {
    case "queued":
      return { label: "About to start", tone: "info", detail: "A sync is waiting to start." };
    case "running":
      return { label: "Syncing now", tone: "info", detail: "Your data is being sent to the Marketing Automation Service." };
    case "succeeded": {
      const withNotSent = notSentOutcomeLabel(latest.status, latest.notSent);
      return withNotSent
        ? {
            label: withNotSent,
            tone: "warning",
            detail: `${pluralize(latest.notSent, "record was", "records were")} not sent, for example an appointment with missing details. Write to support if you miss something.`,
          }
        : { label: "Succeeded", tone: "success", detail: "Everything was sent." };
    }
    case "failed":
      return { label: "Failed", tone: "danger", detail: "Support sees this too and looks into it. The next sync tries again." };
    case "cancelled":
      return { label: "Stopped", tone: "warning", detail: "This sync was stopped before it finished. The next one runs as scheduled." };
    default:
      return { label: "Unknown", tone: "neutral", detail: "Write to support if this stays." };
  }
}
