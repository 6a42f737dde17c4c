import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { ConnectForm } from "@/components/locations/connect-form";
import { Card, CardContent } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";
import { can, seesOwnLocationsOnly } from "@/lib/auth/permissions";
import { loadPageLocation } from "@/lib/locations/load-page-location";

export const metadata: Metadata = { title: "Connect location" };

export default async function ConnectLocationPage({ params }: { params: Promise<{ locationId: string }> }) {
  const user = await requirePageUser({ action: "location.connect" });
  const location = await loadPageLocation(user, (await params).locationId, "location.connect");
  return (
    <>
      <PageHeader
        title={`${location.connected ? "Reconnect" : "Connect"} ${location.name}`}
        description={
          // Someone limited to their own locations is this one's owner.
          seesOwnLocationsOnly(user)
            ? "Sign in with the Marketing Automation Service account that owns this location."
            : "The owner types their own Marketing Automation Service email and password here, with you present."
        }
      />
      <Card>
        <CardContent className="flex flex-col gap-4">
          {can(user, "location.details.view") ? (
            <p className="text-sm text-slate-700">
              The email and password are sent once to the Marketing Automation Service ({location.environment}) to obtain an access token for location{" "}
              <strong>{location.upstreamLocationId ?? "(no upstream ID set)"}</strong>. The dashboard keeps only that token, encrypted, and never the
              password.
              {location.connected ? " Reconnecting replaces the current token." : ""}
            </p>
          ) : (
            <p className="text-sm text-slate-700">
              Your email and password are sent once to the Marketing Automation Service to let this dashboard keep {location.name} in sync. They are
              never stored.
            </p>
          )}
          <ConnectForm locationId={location.id} reconnect={location.connected} />
          <Link href={`/locations/${location.id}`} className="text-sm text-blue-700 hover:underline">
            Back to the location
          </Link>
        </CardContent>
      </Card>
    </>
  );
}
