import { Badge } from "@/components/ui/badge";
import { sessionStatusLabels } from "./session-labels";

const tones = { queued: "neutral", running: "info", succeeded: "success", failed: "danger", cancelled: "warning" } as const;

export function SessionStatusBadge({ status }: { status: string }) {
  return <Badge tone={tones[status as keyof typeof tones] ?? "neutral"}>{sessionStatusLabels[status] ?? status}</Badge>;
}
