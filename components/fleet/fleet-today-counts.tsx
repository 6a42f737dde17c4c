import Link from "next/link";
import type { FleetTodayCounts } from "@/lib/fleet/fleet-session-stats";
import { fleetTodayTiles } from "@/lib/fleet/fleet-today-tiles";

const valueClassName: Record<keyof FleetTodayCounts, string> = {
  succeeded: "text-green-800",
  failed: "text-red-800",
  running: "text-blue-800",
  queued: "text-slate-800",
};

/** Today's counts, each a link to the sessions it counts. `today`: the current UTC day (YYYY-MM-DD). */
export function FleetTodayCountsView({ counts, today }: { counts: FleetTodayCounts; today: string }) {
  const items = fleetTodayTiles(counts, today);
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading" className="sr-only">
        Today
      </h2>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {items.map((item) => (
          // The whole tile is the link (stretched over it), the list stays a list of terms and values.
          <div key={item.key} className="relative rounded-lg border border-slate-200 bg-white p-4 hover:border-slate-400">
            <dt className="text-sm text-slate-600">{item.label}</dt>
            <dd
              className={`text-2xl font-semibold ${valueClassName[item.key]}`}
              data-testid={`count-${item.label.toLowerCase().replace(/\s+/g, "-")}`}
            >
              <Link
                href={item.href}
                aria-label={`${item.label}: ${item.value}, list them`}
                className="after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-blue-600"
              >
                {item.value}
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600">Today is the current UTC day. Each count lists its sessions.</p>
    </section>
  );
}
