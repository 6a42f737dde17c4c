"use client";

import { useQuery } from "@tanstack/react-query";
import { XIcon } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Time } from "@/components/time/time";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { pluralize } from "@/lib/format/plural";
import { statusLabel, statusTone } from "@/lib/format/status";
import type { PreviewRecordItemView, RemovedRecordView } from "@/lib/preview/preview-record-responses";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { previewRecordsQueryOf, previewRecordsQueryOptions } from "@/lib/queries/preview-queries";
import { PreviewRecordDrawer } from "./preview-record-drawer";
import { usePreviewUrl } from "./use-preview-url";

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

const statusFilters = [
  ["valid", "Valid (sent; with warnings too)"],
  ["warning", "With warnings"],
  ["error", "Errors"],
  ["excluded", "Excluded by rule"],
  ["new", "New"],
  ["changed", "Changed"],
  ["unchanged", "Unchanged"],
  ["removed", "Removed (held upstream, no longer sent)"],
] as const;

/**
 * The preview's records of one type, filtered by the URL (search, status, root cause, sort, page) through React Query:
 * a filter applies as it is chosen, without rendering the page on the server again. A row opens its side panel.
 */
export function PreviewRecordsExplorer({
  locationId,
  runId,
  type,
  timeZone,
  causeTitles,
}: {
  locationId: string;
  runId: string;
  type: PreviewRecordType;
  timeZone: string;
  /** The causes' titles by id, to name the one filtering. */
  causeTitles: Record<string, string>;
}) {
  const { params, change } = usePreviewUrl();
  const query = previewRecordsQueryOf(type, params);
  const { data, error, isFetching } = useQuery(previewRecordsQueryOptions(locationId, runId, query));
  const [search, setSearch] = useState(query.q ?? "");
  // Typed text applies after a pause; a search the URL changed otherwise (Back) is shown as it is.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) {
      setSearch(query.q ?? "");
      return;
    }
    const timer = window.setTimeout(() => {
      typed.current = false;
      if (search.trim() !== (query.q ?? "")) change({ q: search.trim() });
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, query.q, change]);
  const record = Number(params.get("record"));
  const page = query.page ?? 0;
  const lastPage = data ? Math.max(0, Math.ceil(data.total / PAGE_SIZE) - 1) : 0;
  const sortButton = (sort: string, label: string) => (
    <button
      type="button"
      onClick={() => change({ sort })}
      aria-pressed={(query.sort ?? "source") === sort}
      className="hover:underline aria-pressed:font-semibold"
    >
      {label}
      {(query.sort ?? "source") === sort ? " ▲" : ""}
    </button>
  );

  return (
    <div className="flex flex-col gap-4">
      <form
        role="search"
        aria-label="Filter records"
        className="grid gap-3 sm:grid-cols-[2fr_1fr] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          typed.current = false;
          change({ q: search.trim() });
        }}
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="preview-q">Search</Label>
          <Input
            id="preview-q"
            type="search"
            value={search}
            onChange={(event) => {
              typed.current = true;
              setSearch(event.target.value);
            }}
            placeholder="ID, name, email or phone"
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="preview-status">Status</Label>
          <Select id="preview-status" value={query.status ?? ""} onChange={(event) => change({ status: event.target.value })}>
            <option value="">Any</option>
            {statusFilters.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
      </form>
      {query.cause ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-950" data-testid="cause-filter">
          <span>
            Only what this holds back: <strong>{causeTitles[query.cause] ?? "a cause no longer in this preview"}</strong>
          </span>
          <Button variant="ghost" size="sm" onClick={() => change({ cause: undefined })}>
            <XIcon aria-hidden="true" className="size-4" /> Clear
          </Button>
        </div>
      ) : null}
      {error ? <Alert tone="error">The records could not be read: {error.message}</Alert> : null}
      <div aria-busy={isFetching}>
        {data?.removed ? (
          <RemovedRecordsTable items={data.removed} timeZone={timeZone} onOpen={(seq) => change({ record: seq })} />
        ) : (
          <RecordsTable
            items={data?.items ?? []}
            timeZone={timeZone}
            showKey={type !== "openings"}
            sortButton={sortButton}
            onOpen={(seq) => change({ record: seq })}
          />
        )}
        {data && data.total === 0 ? <p className="py-6 text-center text-sm text-slate-600">No records match.</p> : null}
      </div>
      <nav aria-label="Record pages" className="flex items-center justify-between text-sm">
        <span>{data ? `${pluralize(data.total, "record")} · page ${page + 1} of ${lastPage + 1}` : "Reading the records…"}</span>
        <span className="flex gap-2">
          {page > 0 ? (
            <Button variant="ghost" size="sm" onClick={() => change({ page: page - 1 })}>
              Previous
            </Button>
          ) : null}
          {page < lastPage ? (
            <Button variant="ghost" size="sm" onClick={() => change({ page: page + 1 })}>
              Next
            </Button>
          ) : null}
        </span>
      </nav>
      <PreviewRecordDrawer
        locationId={locationId}
        type={type}
        seq={Number.isInteger(record) && params.get("record") !== null ? record : null}
        timeZone={timeZone}
        onClose={() => change({ record: undefined })}
      />
    </div>
  );
}

function RecordsTable({
  items,
  timeZone,
  showKey,
  sortButton,
  onOpen,
}: {
  items: PreviewRecordItemView[];
  timeZone: string;
  /** Openings have no external ID: a slot is its service, staff and start, which the label shows. */
  showKey: boolean;
  sortButton: (sort: string, label: string) => ReactNode;
  onOpen: (seq: number) => void;
}) {
  return (
    <Table aria-label="Mapped records">
      <TableHeader>
        <TableRow>
          <TableHead>{sortButton("source", "#")}</TableHead>
          <TableHead>Record</TableHead>
          {showKey ? <TableHead>{sortButton("key", "External ID")}</TableHead> : null}
          <TableHead>{sortButton("status", "Status")}</TableHead>
          <TableHead>Change</TableHead>
          <TableHead>Issues</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.seq} data-testid={`preview-row-${item.sourceId}`}>
            <TableCell className="text-slate-500">{item.seq + 1}</TableCell>
            <TableCell className="min-w-48">
              <button
                type="button"
                onClick={() => onOpen(item.seq)}
                className="text-left font-medium text-blue-700 hover:underline focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
              >
                {item.label.title}
              </button>
              {item.label.detail || item.label.startsAt ? (
                <div className="text-xs text-slate-600">
                  {item.label.startsAt ? <Time value={item.label.startsAt} timeZone={timeZone} style="absolute" /> : null}
                  {item.label.startsAt && item.label.detail ? " · " : null}
                  {item.label.detail}
                </div>
              ) : null}
            </TableCell>
            {showKey ? <TableCell className="text-slate-600">{item.recordKey ?? item.sourceId}</TableCell> : null}
            <TableCell>
              <Badge tone={statusTone(item.status)} data-status={item.status}>
                {item.status === "excluded" && item.excludedReason ? `Excluded: ${item.excludedReason}` : statusLabel(item.status)}
              </Badge>
            </TableCell>
            <TableCell>{item.diff ? statusLabel(item.diff) : "—"}</TableCell>
            <TableCell>{item.issueCount || ""}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function RemovedRecordsTable({ items, timeZone, onOpen }: { items: RemovedRecordView[]; timeZone: string; onOpen: (seq: number) => void }) {
  return (
    <Table aria-label="Removed records">
      <TableHeader>
        <TableRow>
          <TableHead>External ID</TableHead>
          <TableHead>Last accepted upstream</TableHead>
          <TableHead>In the source</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.recordKey} data-testid={`removed-row-${item.recordKey}`}>
            <TableCell className="font-medium">{item.recordKey}</TableCell>
            <TableCell>
              <Time value={item.syncedAt} timeZone={timeZone} style="absolute" />
            </TableCell>
            <TableCell>
              {item.inSource ? (
                <button type="button" className="text-blue-700 hover:underline" onClick={() => onOpen(item.inSource!.seq)}>
                  Yes, not sent: {statusLabel(item.inSource.status).toLowerCase()}
                </button>
              ) : (
                "No longer in the source"
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
