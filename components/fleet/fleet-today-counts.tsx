import type { FleetTodayCounts } from "@/lib/fleet/fleet-session-stats";

export function FleetTodayCountsView({ counts }: { counts: FleetTodayCounts }) {
  const items = [
    { label: "Succeeded today", value: counts.succeeded, className: "text-green-800" },
    { label: "Failed today", value: counts.failed, className: "text-red-800" },
    { label: "Running now", value: counts.running, className: "text-blue-800" },
  ];
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading" className="sr-only">
        Today
      </h2>
      <dl className="grid grid-cols-3 gap-4">
        {items.map((item) => (
          <div key={item.label} className="rounded-lg border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-600">{item.label}</dt>
            <dd className={`text-2xl font-semibold ${item.className}`} data-testid={`count-${item.label.toLowerCase().replace(/\s+/g, "-")}`}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600">Today is the current UTC day.</p>
    </section>
  );
}
