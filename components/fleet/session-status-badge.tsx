import { Badge } from "@/components/ui/badge";
import { notSentOutcomeLabel } from "@/lib/sync/records-not-sent";

const tones = {
  queued: "neutral",
  running: "info",
  succeeded: "success",
  failed: "danger",
  cancelled: "warning",
} as const;

/** A session's status in the fleet's lists; a success that left records out (`notSent`) reads "Succeeded with N not sent", in amber. */
export function SessionStatusBadge({ status, notSent = 0 }: { status: string; notSent?: number }) {
  const withNotSent = notSentOutcomeLabel(status, notSent);
  if (withNotSent) return <Badge tone="warning">{withNotSent}</Badge>;
  const tone = status in tones ? tones[status as keyof typeof tones] : "neutral";
  return <Badge tone={tone}>{status}</Badge>;
}
