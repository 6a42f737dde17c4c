import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { sessionStatuses, sessionTriggers, type SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { statusLabel } from "@/lib/format/status";
import { triggerLabels } from "./session-labels";

/** A plain GET form: the filters live in the URL and work without JavaScript. */
export function SessionHistoryFilters({ locationId, query }: { locationId: string; query: Pick<SessionHistoryQuery, "status" | "trigger"> }) {
  const action = `/locations/${locationId}/sessions`;
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Filter sessions"
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end"
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-status">Status</Label>
        <Select id="sessions-status" name="status" defaultValue={query.status ?? ""}>
          <option value="">Any</option>
          {sessionStatuses.map((status) => (
            <option key={status} value={status}>
              {statusLabel(status)}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-trigger">Trigger</Label>
        <Select id="sessions-trigger" name="trigger" defaultValue={query.trigger ?? ""}>
          <option value="">Any</option>
          {sessionTriggers.map((trigger) => (
            <option key={trigger} value={trigger}>
              {triggerLabels[trigger]}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit">Apply</Button>
      {query.status || query.trigger ? (
        <Link href={action} className="text-sm text-blue-700 underline sm:self-center">
          Clear
        </Link>
      ) : (
        <span />
      )}
    </form>
  );
}
