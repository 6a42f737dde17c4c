import type { ReactNode } from "react";
import { AppShell } from "@/components/layout/app-shell";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { countLocationsNeedingAttention } from "@/lib/fleet/count-attention";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  const attentionCount = await countLocationsNeedingAttention(getDatabase(), user);
  return (
    <AppShell user={user} attentionCount={attentionCount}>
      {children}
    </AppShell>
  );
}
