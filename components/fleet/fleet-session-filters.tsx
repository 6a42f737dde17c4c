import { environmentFilterOptions, FilterSearch, FilterSelect } from "@/components/ui/filter-fields";
import { FilterForm } from "@/components/ui/filter-form";
import type { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";

const statusOptions = [
  ["running", "Running"],
  ["queued", "Queued"],
  ["failed", "Failed"],
  ["succeeded", "Succeeded"],
  ["cancelled", "Cancelled"],
] as const;

const triggerOptions = [
  ["schedule", "Schedule"],
  ["manual", "Manual"],
  ["resume", "Resume"],
  ["cli", "CLI"],
] as const;

export function FleetSessionFilters({ query }: { query: Pick<FleetSessionQuery, "q" | "status" | "trigger" | "environment" | "ended" | "created"> }) {
  // A day chosen from a tile or the chart stays while the other filters change; Clear drops it.
  const day = query.ended ? (["ended", "Ended", query.ended] as const) : query.created ? (["created", "Started", query.created] as const) : null;
  return (
    <FilterForm
      action="/sessions"
      label="Filter sessions"
      columns="sm:grid-cols-[2fr_1fr_1fr_1fr_auto_auto]"
      filtered={Boolean(query.q || query.status || query.trigger || query.environment || day)}
    >
      {day ? (
        <p className="text-sm sm:col-span-full" data-testid="sessions-day-filter">
          <input type="hidden" name={day[0]} value={day[2]} />
          {day[1]} on {day[2]} (UTC)
        </p>
      ) : null}
      <FilterSearch id="sessions-q" label="Location" value={query.q} placeholder="Location name" />
      <FilterSelect id="sessions-status" name="status" label="Status" value={query.status} options={statusOptions} />
      <FilterSelect id="sessions-trigger" name="trigger" label="Trigger" value={query.trigger} options={triggerOptions} />
      <FilterSelect id="sessions-environment" name="environment" label="Environment" value={query.environment} options={environmentFilterOptions} />
    </FilterForm>
  );
}
