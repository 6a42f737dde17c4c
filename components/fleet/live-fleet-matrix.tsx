"use client";

import { pluralize } from "@/lib/format/plural";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import type { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";
import { hrefWith } from "@/lib/http/search-params";
import { fleetMatrixQueryOptions } from "@/lib/queries/fleet-queries";
import { FleetMatrixTable } from "./fleet-matrix-table";

/** The fleet matrix from its live query: polled each second while a location of the page syncs, now and then otherwise. */
/** `empty`: what the page shows when no location matches (the server decides the message and the action). */
export function LiveFleetMatrix({ query, canPause, empty }: { query: FleetMatrixQuery; canPause: boolean; empty: ReactNode }) {
  const { data: matrix } = useQuery(fleetMatrixQueryOptions(query));
  if (!matrix) return null;
  const filters = { q: query.q, environment: query.environment };
  return (
    <>
      <p className="text-sm text-slate-600" aria-live="polite">
        {pluralize(matrix.total, "location")} · page {matrix.page} of {matrix.pageCount}
      </p>
      {matrix.rows.length === 0 ? empty : <FleetMatrixTable rows={matrix.rows} canPause={canPause} />}
      {matrix.pageCount > 1 ? (
        <nav aria-label="Pages" className="flex justify-between text-sm">
          {matrix.page > 1 ? (
            <Link href={hrefWith("/fleet", filters, { page: matrix.page - 1 })} className="text-blue-700 underline" rel="prev">
              Previous
            </Link>
          ) : (
            <span />
          )}
          {matrix.page < matrix.pageCount ? (
            <Link href={hrefWith("/fleet", filters, { page: matrix.page + 1 })} className="text-blue-700 underline" rel="next">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
