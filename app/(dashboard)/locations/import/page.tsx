import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { LocationImportForm } from "@/components/locations/location-import-form";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Import locations" };

export default async function ImportLocationsPage() {
  await requirePageUser({ action: "location.import" });
  return (
    <>
      <PageHeader
        title="Import locations"
        description="Onboard many locations from a CSV file: check it first, then create them all at once and invite their owners."
      />
      <LocationImportForm />
    </>
  );
}
