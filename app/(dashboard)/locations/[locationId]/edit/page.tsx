import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { LocationForm } from "@/components/locations/location-form";
import { requirePageUser } from "@/lib/auth/guard";
import { loadPageLocation } from "@/lib/locations/load-page-location";
import { countryOptions, timeZoneOptions } from "@/lib/locations/location-form-options";

export const metadata: Metadata = { title: "Edit location" };

export default async function EditLocationPage({ params }: { params: Promise<{ locationId: string }> }) {
  const user = await requirePageUser({ action: "location.edit" });
  // Checks the id and the caller's permission on this location (membership rule) before loading.
  const location = await loadPageLocation(user, (await params).locationId, "location.edit");
  return (
    <>
      <PageHeader title={`Edit ${location.name}`} />
      <LocationForm
        location={{
          id: location.id,
          connected: location.connected,
          values: {
            name: location.name,
            timeZone: location.timeZone,
            country: location.country,
            environment: location.environment,
            upstreamLocationId: location.upstreamLocationId ?? "",
            sourceKey: location.sourceKey ?? "",
            automotive: location.automotive,
            syncTime: location.syncTime,
          },
        }}
        timeZones={timeZoneOptions(location.timeZone)}
        countries={countryOptions()}
      />
    </>
  );
}
