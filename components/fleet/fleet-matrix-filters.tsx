import { environmentFilterOptions, FilterSearch, FilterSelect } from "@/components/ui/filter-fields";
import { FilterForm } from "@/components/ui/filter-form";
import type { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";

export function FleetMatrixFilters({ query }: { query: Pick<FleetMatrixQuery, "q" | "environment"> }) {
  return (
    <FilterForm action="/fleet" label="Filter locations" columns="sm:grid-cols-[2fr_1fr_auto_auto]" filtered={Boolean(query.q || query.environment)}>
      <FilterSearch id="fleet-q" label="Search" value={query.q} placeholder="Location name" />
      <FilterSelect id="fleet-environment" name="environment" label="Environment" value={query.environment} options={environmentFilterOptions} />
    </FilterForm>
  );
}
