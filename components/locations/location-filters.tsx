import { environmentFilterOptions, FilterSearch, FilterSelect } from "@/components/ui/filter-fields";
import { FilterForm } from "@/components/ui/filter-form";
import type { LocationListQuery } from "@/lib/locations/location-inputs";

const connectionOptions = [
  ["connected", "Connected"],
  ["not_connected", "Not connected"],
  ["needs_attention", "Needs attention"],
  ["archived", "Archived"],
] as const;

/** `showDetails`: the operator's filters too (environment, upstream location ID), for whoever may see them. */
export function LocationFilters({ query, showDetails }: { query: Pick<LocationListQuery, "q" | "status" | "environment">; showDetails: boolean }) {
  return (
    <FilterForm
      action="/locations"
      label="Filter locations"
      columns={showDetails ? "sm:grid-cols-[2fr_1fr_1fr_auto_auto]" : "sm:grid-cols-[2fr_1fr_auto_auto]"}
      filtered={Boolean(query.q || query.status || query.environment)}
    >
      <FilterSearch id="locations-q" label="Search" value={query.q} placeholder={showDetails ? "Name or exact upstream location ID" : "Name"} />
      <FilterSelect id="locations-status" name="status" label="Connection" value={query.status} options={connectionOptions} />
      {showDetails ? (
        <FilterSelect
          id="locations-environment"
          name="environment"
          label="Environment"
          value={query.environment}
          options={environmentFilterOptions}
        />
      ) : null}
    </FilterForm>
  );
}
