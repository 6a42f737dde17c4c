import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { LocationForm } from "@/components/locations/location-form";
import { requirePageUser } from "@/lib/auth/guard";
import { countryOptions, timeZoneOptions } from "@/lib/locations/location-form-options";

export const metadata: Metadata = { title: "New location" };

export default async function NewLocationPage() {
  await requirePageUser({ action: "location.create" });
  return (
    <>
      <PageHeader
        title="New location"
        description="A business location to keep in sync. Its owner connects it to their upstream account afterwards."
      />
      <LocationForm timeZones={timeZoneOptions()} countries={countryOptions()} />
    </>
  );
}
