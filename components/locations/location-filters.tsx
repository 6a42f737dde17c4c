import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { LocationListQuery } from "@/lib/locations/location-inputs";

/** A plain GET form: filters live in the URL and work without JavaScript. */
export function LocationFilters({ query }: { query: Pick<LocationListQuery, "q" | "status" | "environment"> }) {
  const filtered = Boolean(query.q || query.status || query.environment);
  return (
    <form method="get" action="/locations" role="search" aria-label="Filter locations" className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto_auto] sm:items-end">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="locations-q">Search</Label>
        <Input id="locations-q" name="q" type="search" defaultValue={query.q ?? ""} placeholder="Name or exact upstream location ID" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="locations-status">Connection</Label>
        <Select id="locations-status" name="status" defaultValue={query.status ?? ""}>
          <option value="">Any</option>
          <option value="connected">Connected</option>
          <option value="not_connected">Not connected</option>
          <option value="needs_attention">Needs attention</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="locations-environment">Environment</Label>
        <Select id="locations-environment" name="environment" defaultValue={query.environment ?? ""}>
          <option value="">Any</option>
          <option value="staging">Staging</option>
          <option value="production">Production</option>
        </Select>
      </div>
      <Button type="submit">Apply</Button>
      {filtered ? (
        <Link href="/locations" className="text-sm text-blue-700 underline sm:self-center">
          Clear
        </Link>
      ) : (
        <span />
      )}
    </form>
  );
}
