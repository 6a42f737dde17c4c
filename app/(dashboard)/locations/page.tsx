import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { listVisibleLocations } from "@/lib/locations/list-visible-locations";

export const metadata: Metadata = { title: "Locations" };

export default async function LocationsPage() {
  const user = await requirePageUser();
  const locations = await listVisibleLocations(getDatabase(), user);
  return (
    <>
      <PageHeader
        title="Locations"
        description={user.role === "owner" ? "The business locations you manage." : "Every business location kept in sync with the Marketing Automation Service."}
      />
      <Card>
        <CardContent>
          {locations.length === 0 ? (
            <p className="py-8 text-center text-sm text-slate-600">No locations yet.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Added</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {locations.map((location) => (
                  <TableRow key={location.id}>
                    <TableCell>{location.name}</TableCell>
                    <TableCell>{location.createdAt.toISOString().slice(0, 10)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </>
  );
}
