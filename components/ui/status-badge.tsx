import { statusLabel, statusTone } from "@/lib/format/status";
import { notSentOutcomeLabel } from "@/lib/sync/records-not-sent";
import { Badge } from "./badge";

/**
 * The one status badge of the dashboard (sessions, steps, items, preview runs), worded from lib/format/status;
 * a success that left records out (`notSent`) reads "Succeeded with N not sent", in amber.
 */
export function StatusBadge({ status, notSent = 0 }: { status: string; notSent?: number }) {
  const withNotSent = notSentOutcomeLabel(status, notSent);
  return (
    <Badge tone={withNotSent ? "warning" : statusTone(status)} data-status={status}>
      {withNotSent ?? statusLabel(status)}
    </Badge>
  );
}
