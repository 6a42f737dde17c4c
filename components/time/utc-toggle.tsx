"use client";

import { setTimesInUtc, useTimesInUtc } from "./time-zone-preference";

/** Switches every time on the dashboard between each location's own time and UTC (kept in this browser). */
export function UtcToggle() {
  const utc = useTimesInUtc();
  return (
    <label className="flex items-center gap-2 text-slate-700">
      <input type="checkbox" checked={utc} onChange={(event) => setTimesInUtc(event.target.checked)} />
      Times in UTC
    </label>
  );
}
