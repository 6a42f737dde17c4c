import { notFound } from "next/navigation";
import { getDatabase } from "@/db/client";
import { requirePageLocation, type CurrentUser } from "@/lib/auth/guard";
import { DomainError } from "@/lib/errors/domain-error";
import { getLocationRow, toLocationView, type LocationView } from "./get-location";
import { LocationId } from "./location-inputs";

/** Pages under /locations/[locationId]: a malformed, unknown or not-visible id is the same 404. */
export async function loadPageLocation(user: CurrentUser, locationId: string): Promise<LocationView> {
  const parsed = LocationId.safeParse({ locationId });
  if (!parsed.success) notFound();
  await requirePageLocation(user, parsed.data.locationId);
  try {
    return toLocationView(await getLocationRow(getDatabase(), parsed.data.locationId));
  } catch (error) {
    if (error instanceof DomainError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
