"use client";

import { useEffect, useState } from "react";
import { formatAbsoluteTime, formatFullTime, formatRelativeTime, formatWeekdayTime, isoInstant } from "@/lib/format/time";
import { useTimesInUtc } from "./time-zone-preference";

type TimeStyle = "relative" | "absolute" | "weekday";

/**
 * The one way the dashboard shows an instant: in the location's own time zone (or UTC, when an engineer chose it),
 * as "5 minutes ago" (relative), "24 Nov 2026, 10:52" (absolute) or "Tue 10:00" (weekday); the whole instant with its
 * zone is on hover. A relative time is worked out again each minute.
 */
export function Time({
  value,
  timeZone,
  style = "relative",
  withZone = false,
}: {
  value: Date | string;
  timeZone: string;
  style?: TimeStyle;
  /** After an exact time, the zone it is in: the location's, or UTC (said once). */
  withZone?: boolean;
}) {
  const utc = useTimesInUtc();
  const now = useNow(style === "relative");
  const zone = { timeZone, utc };
  const text =
    style === "relative" ? formatRelativeTime(value, now) : style === "weekday" ? formatWeekdayTime(value, zone) : formatAbsoluteTime(value, zone);
  return (
    <time dateTime={isoInstant(value)} title={formatFullTime(value, zone)} suppressHydrationWarning>
      {text}
      {style === "relative" ? "" : utc || timeZone === "UTC" ? " UTC" : withZone ? <span className="text-slate-600"> {timeZone}</span> : ""}
    </time>
  );
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 60_000);
    return () => window.clearTimeout(timer);
  }, [ticking, now]);
  return now;
}
