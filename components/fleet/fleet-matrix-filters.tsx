import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";

/** A plain GET form: filters live in the URL and work without JavaScript. */
export function FleetMatrixFilters({ query }: { query: Pick<FleetMatrixQuery, "q" | "environment"> }) {
  const filtered = Boolean(query.q || query.environment);
  return (
    <form method="get" action="/fleet" role="search" aria-label="Filter locations" className="grid gap-3 sm:grid-cols-[2fr_1fr_auto_auto] sm:items-end">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="fleet-q">Search</Label>
        <Input id="fleet-q" name="q" type="search" defaultValue={query.q ?? ""} placeholder="Location name" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="fleet-environment">Environment</Label>
        <Select id="fleet-environment" name="environment" defaultValue={query.environment ?? ""}>
          <option value="">Any</option>
          <option value="staging">Staging</option>
          <option value="production">Production</option>
        </Select>
      </div>
      <Button type="submit">Apply</Button>
      {filtered ? (
        <Link href="/fleet" className="text-sm text-blue-700 underline sm:self-center">
          Clear
        </Link>
      ) : (
        <span />
      )}
    </form>
  );
}
