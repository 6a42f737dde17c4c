"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { FleetDay } from "@/lib/fleet/fleet-session-stats";
import { formatDuration } from "./format-duration";

const dayLabel = (day: string) => day.slice(5);

/**
 * Sessions and failures per UTC day, and median / p90 durations, over the last 30 days. The
 * drawings are hidden from assistive technology (and not focusable); the table below carries the numbers.
 */
export function FleetCharts({ days }: { days: FleetDay[] }) {
  const router = useRouter();
  const data = days.map((day) => ({ ...day, succeededOrOther: day.sessions - day.failed }));
  // A day's bar or point opens that day's sessions (the table's day links do the same for the keyboard).
  const openDay = (entry: { payload?: { day?: string } } | undefined) => {
    if (entry?.payload?.day) router.push(`/sessions?created=${entry.payload.day}`);
  };
  const clickableDot = { r: 5, cursor: "pointer", onClick: (_event: unknown, point: unknown) => openDay(point as { payload?: { day?: string } }) };
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <figure aria-labelledby="sessions-chart-title">
        <figcaption id="sessions-chart-title" className="mb-2 text-sm font-medium">
          Sessions and failures per day (UTC, last 30 days)
        </figcaption>
        <div className="h-56" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 8, bottom: 4, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
              <XAxis dataKey="day" tickFormatter={dayLabel} fontSize={11} />
              <YAxis allowDecimals={false} fontSize={11} width={32} />
              <Tooltip />
              <Legend />
              <Bar dataKey="succeededOrOther" name="Other sessions" stackId="sessions" fill="#64748b" cursor="pointer" onClick={openDay} />
              <Bar dataKey="failed" name="Failed" stackId="sessions" fill="#b91c1c" cursor="pointer" onClick={openDay} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure aria-labelledby="durations-chart-title">
        <figcaption id="durations-chart-title" className="mb-2 text-sm font-medium">
          Session duration, median and p90 (UTC days)
        </figcaption>
        <div className="h-56" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 8, bottom: 4, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
              <XAxis dataKey="day" tickFormatter={dayLabel} fontSize={11} />
              <YAxis tickFormatter={(value: number) => formatDuration(value)} fontSize={11} width={56} />
              <Tooltip formatter={(value) => (typeof value === "number" ? formatDuration(value) : String(value))} />
              <Legend />
              <Line type="monotone" dataKey="medianDurationMs" name="Median" stroke="#1d4ed8" dot={{ r: 3 }} activeDot={clickableDot} connectNulls />
              <Line
                type="monotone"
                dataKey="p90DurationMs"
                name="p90"
                stroke="#b45309"
                strokeDasharray="4 2"
                dot={{ r: 3 }}
                activeDot={clickableDot}
                connectNulls
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <details className="text-sm lg:col-span-2">
        <summary className="cursor-pointer text-slate-700">The chart data as a table</summary>
        <table className="mt-2 w-full text-left text-xs">
          <caption className="sr-only">Sessions, failures and durations per UTC day</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Sessions</th>
              <th scope="col">Failed</th>
              <th scope="col">Median</th>
              <th scope="col">p90</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row" className="font-normal">
                  <Link href={`/sessions?created=${day.day}`} className="text-blue-700 underline">
                    {day.day}
                  </Link>
                </th>
                <td>{day.sessions}</td>
                <td>{day.failed}</td>
                <td>{day.medianDurationMs === null ? "–" : formatDuration(day.medianDurationMs)}</td>
                <td>{day.p90DurationMs === null ? "–" : formatDuration(day.p90DurationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
