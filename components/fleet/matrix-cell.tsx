import Link from "next/link";
import { formatAbsoluteTime } from "@/lib/format/time";
import type { FleetMatrixRowJson } from "@/lib/fleet/fleet-matrix-responses";
import { cellStateLabels, matrixStepLabels, type CellState } from "@/lib/fleet/step-freshness";
import { cn } from "@/lib/utils";

/** Colour plus a word and a symbol: colour is never the only signal. */
const looks: Record<CellState, { symbol: string; word: string; className: string }> = {
  failed: { symbol: "✕", word: "Failed", className: "bg-red-100 text-red-900" },
  stale: { symbol: "!", word: "Stale", className: "bg-amber-100 text-amber-900" },
  fresh: { symbol: "✓", word: "OK", className: "bg-green-100 text-green-900" },
  never: { symbol: "○", word: "Never", className: "bg-slate-100 text-slate-700" },
  not_applicable: { symbol: "–", word: "n/a", className: "bg-white text-slate-600" },
};

/** A cell links to the location's session history: the sessions its colour comes from. */
export function MatrixCellView({ cell, locationId }: { cell: FleetMatrixRowJson["cells"][number]; locationId: string }) {
  const look = looks[cell.state];
  const when = cell.at ? `, last ended ${formatAbsoluteTime(cell.at, { timeZone: "UTC", utc: true })} UTC` : "";
  const label = `${matrixStepLabels[cell.step]}: ${cellStateLabels[cell.state]}${when}`;
  return (
    <td
      className={cn("border border-white px-2 py-1 text-center text-xs font-medium whitespace-nowrap", look.className)}
      title={label}
      data-state={cell.state}
    >
      <Link
        href={`/locations/${locationId}/sessions`}
        className="block rounded-sm focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
      >
        <span aria-hidden="true">
          {look.symbol} {look.word}
        </span>
        <span className="sr-only">{label}</span>
      </Link>
    </td>
  );
}

const legendText: Record<CellState, string> = {
  failed: "its last run failed",
  stale: "last sent longer ago than it stays fresh",
  fresh: "sent recently",
  never: "never sent",
  not_applicable: "not used by this location (vehicles: automotive only)",
};

export function MatrixLegend() {
  return (
    <ul className="flex flex-wrap gap-2 text-xs" aria-label="Legend">
      {(Object.keys(looks) as CellState[]).map((state) => (
        <li key={state} className={cn("rounded px-2 py-1", looks[state].className)}>
          <span aria-hidden="true">{looks[state].symbol} </span>
          {looks[state].word}: {legendText[state]}
        </li>
      ))}
    </ul>
  );
}
