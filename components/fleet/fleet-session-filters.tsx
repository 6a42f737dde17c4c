import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";

/** A plain GET form: filters live in the URL and work without JavaScript. */
export function FleetSessionFilters({ query }: { query: Pick<FleetSessionQuery, "q" | "status" | "trigger" | "environment"> }) {
  const filtered = Boolean(query.q || query.status || query.trigger || query.environment);
  return (
    <form method="get" action="/sessions" role="search" aria-label="Filter sessions" className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_1fr_auto_auto] sm:items-end">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-q">Location</Label>
        <Input id="sessions-q" name="q" type="search" defaultValue={query.q ?? ""} placeholder="Location name" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-status">Status</Label>
        <Select id="sessions-status" name="status" defaultValue={query.status ?? ""}>
          <option value="">Any</option>
          <option value="running">Running</option>
          <option value="queued">Queued</option>
          <option value="failed">Failed</option>
          <option value="succeeded">Succeeded</option>
          <option value="cancelled">Cancelled</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-trigger">Trigger</Label>
        <Select id="sessions-trigger" name="trigger" defaultValue={query.trigger ?? ""}>
          <option value="">Any</option>
          <option value="schedule">Schedule</option>
          <option value="manual">Manual</option>
          <option value="resume">Resume</option>
          <option value="cli">CLI</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="sessions-environment">Environment</Label>
        <Select id="sessions-environment" name="environment" defaultValue={query.environment ?? ""}>
          <option value="">Any</option>
          <option value="staging">Staging</option>
          <option value="production">Production</option>
        </Select>
      </div>
      <Button type="submit">Apply</Button>
      {filtered ? (
        <Link href="/sessions" className="text-sm text-blue-700 underline sm:self-center">
          Clear
        </Link>
      ) : (
        <span />
      )}
    </form>
  );
}
