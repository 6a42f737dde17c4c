import Link from "next/link";
import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { Permissions } from "@/lib/auth/permissions";
import type { SessionView } from "@/lib/sync/read-session-view";
import { LiveProgress } from "./live-progress";

/** Preview, or watch the sync in flight (Sync now is in the page header); engineers only read. */
export function SyncCard({
  location,
  openSession,
  permissions,
  nextRun,
  now,
}: {
  location: { id: string; timeZone: string; connected: boolean };
  openSession: SessionView | null;
  /** What the viewer may do (lib/auth/permissions, computed on the server). */
  permissions: Permissions;
  /** The next scheduled run, or who paused the schedule. */
  nextRun: ReactNode;
  /** When the page's live query read `openSession`. */
  now: number;
}) {
  return (
    <Card role="region" aria-labelledby="preview-sync-title">
      <CardHeader>
        <CardTitle id="preview-sync-title">Preview and sync</CardTitle>
        <CardDescription>What a sync would send, checked record by record, before anything is sent.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Link href={`/locations/${location.id}/preview`} className={buttonVariants({ variant: "secondary", className: "self-start" })}>
          Open the preview
        </Link>
        {openSession ? (
          <LiveProgress view={openSession} now={now} permissions={permissions} />
        ) : !location.connected ? (
          <p className="text-sm text-slate-600">Connect the location first: syncs use its access token.</p>
        ) : permissions["sync.start"] ? (
          <p className="text-sm text-slate-600">Sync now and Full resync are at the top of the page.</p>
        ) : (
          <p className="text-sm text-slate-600">Engineers see syncs read-only: support and admin start, resume and cancel them.</p>
        )}
        <p className="text-sm text-slate-600">Next sync: {nextRun}</p>
      </CardContent>
    </Card>
  );
}
