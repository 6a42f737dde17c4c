import type { Metadata } from "next";
import { AlertChannelsForm } from "@/components/alerts/alert-channels-form";
import { PageHeader } from "@/components/layout/page-header";
import { getDatabase } from "@/db/client";
import { getAlertChannelsView } from "@/lib/alerts/alert-channels";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertSettingsPage() {
  const user = await requirePageUser({ action: "alerts.manage" });
  const channels = await getAlertChannelsView({ db: getDatabase(), actor: user });
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Where to tell people when a location's sync fails for good, and when it recovers: once per change, never per retried request."
      />
      <AlertChannelsForm channels={channels} />
    </>
  );
}
