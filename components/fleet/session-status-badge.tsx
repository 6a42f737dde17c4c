import { Badge } from "@/components/ui/badge";

const tones = {
  queued: "neutral",
  running: "info",
  succeeded: "success",
  failed: "danger",
  cancelled: "warning",
} as const;

export function SessionStatusBadge({ status }: { status: string }) {
  const tone = status in tones ? tones[status as keyof typeof tones] : "neutral";
  return <Badge tone={tone}>{status}</Badge>;
}
