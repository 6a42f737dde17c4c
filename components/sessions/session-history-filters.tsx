import { FilterSelect } from "@/components/ui/filter-fields";
import { FilterForm } from "@/components/ui/filter-form";
import { statusLabel } from "@/lib/format/status";
import { sessionStatuses, sessionTriggers, type SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { triggerLabels } from "./session-labels";

const statusOptions = sessionStatuses.map((status) => [status, statusLabel(status)] as const);
const triggerOptions = sessionTriggers.map((trigger) => [trigger, triggerLabels[trigger] ?? trigger] as const);

/** The location's history filters: in the URL, applied as they are chosen (FilterForm). */
export function SessionHistoryFilters({ locationId, query }: { locationId: string; query: Pick<SessionHistoryQuery, "status" | "trigger"> }) {
  return (
    <FilterForm
      action={`/locations/${locationId}/sessions`}
      label="Filter sessions"
      columns="sm:grid-cols-[1fr_1fr_auto_auto]"
      filtered={Boolean(query.status || query.trigger)}
    >
      <FilterSelect id="sessions-status" name="status" label="Status" value={query.status} options={statusOptions} />
      <FilterSelect id="sessions-trigger" name="trigger" label="Trigger" value={query.trigger} options={triggerOptions} />
    </FilterForm>
  );
}
