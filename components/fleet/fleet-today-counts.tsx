import Link from "next/link";
import type { FleetTodayCounts } from "@/lib/fleet/fleet-session-stats";

/** Today's counts, each a link to the sessions it counts. `today`: the current UTC day (YYYY-MM-DD). */
export function FleetTodayCountsView({ counts, today }: { counts: FleetTodayCounts; today: string }) {
  const items = [
    { label: "Succeeded today", value: counts.succeeded, className: "text-green-800", href: `/sessions?status=succeeded&ended=${today}` },
    { label: "Failed today", value: counts.failed, className: "text-red-800", href: `/sessions?status=failed&ended=${today}` },
    { label: "Running now", value: counts.running, className: "text-blue-800", href: "/sessions?status=running" },
  ];
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading" className="sr-only">
        Today
      </h2>
      <dl className="grid grid-cols-3 gap-4">
        {items.map((item) => (
          // The whole tile is the link (stretched over it), the list stays a list of terms and values.
          <div key={item.label} className="relative rounded-lg border border-slate-200 bg-white p-4 hover:border-slate-400">
            <dt className="text-sm text-slate-600">{item.label}</dt>
            <dd className={`text-2xl font-semibold ${item.className}`} data-testid={`count-${item.label.toLowerCase().replace(/\s+/g, "-")}`}>
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
