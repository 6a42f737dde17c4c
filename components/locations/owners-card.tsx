import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { LocationOwner } from "@/lib/locations/list-location-owners";
import { OwnerInviteForm } from "./owner-invite-form";

export function OwnersCard({ locationId, owners, canInvite }: { locationId: string; owners: LocationOwner[]; canInvite: boolean }) {
  return (
    <Card role="region" aria-labelledby="owners-title">
      <CardHeader>
        <CardTitle id="owners-title">Owners</CardTitle>
        <CardDescription>
          Owners sign in to see this location and connect it. An invitation link works once and expires after 72 hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {owners.length === 0 ? (
          <p className="text-sm text-slate-600">No owner has access yet.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {owners.map((owner) => (
              <li key={owner.email} className="flex items-center gap-2">
                <span>{owner.name ? `${owner.name} · ${owner.email}` : owner.email}</span>
                {owner.pendingInvite ? <Badge tone="warning">Invited</Badge> : null}
                {!owner.active ? <Badge tone="danger">Deactivated</Badge> : null}
              </li>
            ))}
          </ul>
        )}
        {canInvite ? <OwnerInviteForm locationId={locationId} /> : null}
      </CardContent>
    </Card>
  );
}
