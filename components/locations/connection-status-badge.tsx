import { Badge } from "@/components/ui/badge";

export type ConnectionStatus = "connected" | "not_connected" | "needs_attention";

export function connectionStatusOf(location: { connected: boolean; attentionReason: string | null }): ConnectionStatus {
  if (location.attentionReason) return "needs_attention";
  return location.connected ? "connected" : "not_connected";
}

const looks = {
  connected: { tone: "success", label: "Connected" },
  not_connected: { tone: "neutral", label: "Not connected" },
  needs_attention: { tone: "danger", label: "Needs attention" },
} as const;

export function ConnectionStatusBadge({ status }: { status: ConnectionStatus }) {
  const look = looks[status];
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
