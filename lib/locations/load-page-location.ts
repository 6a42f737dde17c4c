import { forbidden, notFound } from "next/navigation";
import { getDatabase } from "@/db/client";
import type { CurrentUser } from "@/lib/auth/current-user";
import type { LocationAction } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { getLocationView, type LocationView } from "./get-location";
import { LocationId } from "./location-inputs";

/**
 * Pages under /locations/[locationId], for `action` (default "location.view"): a malformed, unknown or hidden
 * (membership rule) id is the same 404; a role the action does not allow, the 403 page.
 */
export async function loadPageLocation(user: CurrentUser, locationId: string, action: LocationAction = "location.view"): Promise<LocationView> {
  const parsed = LocationId.safeParse({ locationId });
  if (!parsed.success) notFound();
  try {
    return await getLocationView({ db: getDatabase(), actor: user }, { locationId: parsed.data.locationId, action });
  } catch (error) {
    if (error instanceof DomainError && error.code === "NOT_FOUND") notFound();
    if (error instanceof DomainError && error.code === "FORBIDDEN") forbidden();
    throw error;
  }
}
