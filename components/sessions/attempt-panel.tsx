"use client";

import { useQuery } from "@tanstack/react-query";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import type { Permissions } from "@/lib/auth/permissions";
import { pluralize } from "@/lib/format/plural";
import { Time } from "@/components/time/time";
import { attemptExchangeQueryOptions } from "@/lib/queries/session-queries";
import type { AttemptView } from "@/lib/sync/session-view";
import { ErrorWithFix } from "./error-fix";
import { formatBytes, formatMilliseconds, formatOffset } from "./waterfall-scale";

export interface OpenAttempt {
  attempt: AttemptView;
  /** Its number in the session: 1 for the first request made. */
  number: number;
  /** Ms from the session start. */
  offset: number;
  /** The row that opened the panel: focus returns to it. */
  opener: HTMLElement | null;
}

function Headers({ headers, label }: { headers: Record<string, string> | null; label: string }) {
  if (!headers || Object.keys(headers).length === 0) return <p className="text-sm text-slate-600">No headers recorded.</p>;
  return (
    <dl aria-label={label} className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 font-mono text-xs">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-slate-600">{name}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ body, bytes, label, streamed }: { body: string | null; bytes: number | null; label: string; streamed?: boolean }) {
  const size = bytes === null ? "" : ` (${formatBytes(bytes)})`;
  if (body === null || body === "") {
    return (
      <p className="text-sm text-slate-600">
        {streamed ? `Records streamed${size}; the records themselves are not kept.` : bytes ? `Not recorded${size}.` : "Empty."}
      </p>
    );
  }
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-xs text-slate-600">
        {label}
        {size}
      </figcaption>
      <pre className="max-h-72 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap" tabIndex={0}>
        {body}
      </pre>
    </figure>
  );
}

/** The side panel of one HTTP attempt: what was asked and answered, as recorded (redacted by the client, bodies truncated). */
export function AttemptPanel({
  sessionId,
  locationId,
  open,
  timeZone,
  permissions,
  onClose,
}: {
  sessionId: string;
  locationId: string;
  open: OpenAttempt | null;
  timeZone: string;
  permissions: Permissions;
  onClose: () => void;
}) {
  const attempt = open?.attempt;
  const exchange = useQuery({ ...attemptExchangeQueryOptions(sessionId, attempt?.id ?? 0), enabled: attempt !== undefined });
  const ok = attempt?.status !== null && attempt?.status !== undefined && attempt.status >= 200 && attempt.status < 300;
  return (
    <Sheet open={open !== null} onOpenChange={(next) => (next ? undefined : onClose())}>
      {open && attempt ? (
        <SheetContent
          aria-describedby="attempt-panel-description"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            open.opener?.focus();
          }}
        >
          <SheetHeader>
            <SheetTitle>
              Request #{open.number}: {attempt.method} {attempt.status ?? "no answer"}
            </SheetTitle>
            <SheetDescription id="attempt-panel-description" className="font-mono break-all">
              {attempt.method} {attempt.path}
            </SheetDescription>
          </SheetHeader>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Status</dt>
            <dd className={ok ? "text-green-800" : "text-red-800"}>{attempt.status ?? "no answer"}</dd>
            <dt className="text-slate-600">Started</dt>
            <dd>
              {formatOffset(open.offset)} · <Time value={attempt.startedAt} timeZone={timeZone} style="absolute" withZone />
            </dd>
            <dt className="text-slate-600">Duration</dt>
            <dd>{formatMilliseconds(attempt.durationMs)}</dd>
            <dt className="text-slate-600">Retry</dt>
            <dd>{attempt.retryDelayMs === null ? "none followed" : `after ${formatMilliseconds(attempt.retryDelayMs)}`}</dd>
            <dt className="text-slate-600">Operation</dt>
            <dd>
              {attempt.operation}, try {attempt.attempt}
            </dd>
            {attempt.records !== null ? (
              <>
                <dt className="text-slate-600">Sent</dt>
                <dd>
                  {attempt.records.toLocaleString("en")} records · {formatBytes(attempt.bytes ?? 0)}
                </dd>
              </>
            ) : null}
            {attempt.bodySha256 ? (
              <>
                <dt className="text-slate-600">Body SHA-256</dt>
                <dd className="font-mono text-xs break-all" data-testid="attempt-body-sha256">
                  {attempt.bodySha256}
                </dd>
              </>
            ) : null}
          </dl>
          {attempt.error ? <ErrorWithFix error={attempt.error} locationId={locationId} permissions={permissions} /> : null}
          {exchange.isPending ? (
            <p className="text-sm text-slate-600">Loading the request and response…</p>
          ) : exchange.isError ? (
            <p className="text-sm text-red-800">Could not load the request and response: {exchange.error.message}</p>
          ) : exchange.data.detailsRemovedAfterDays !== null ? (
            <p className="text-sm text-slate-600">
              Requests and responses are kept for {pluralize(exchange.data.detailsRemovedAfterDays, "day")}: this attempt&apos;s have been removed,
              its summary above stays.
            </p>
          ) : !exchange.data.recorded ? (
            <p className="text-sm text-slate-600">This attempt was made before requests and responses were recorded.</p>
          ) : (
            <>
              <section aria-label="Request" className="flex flex-col gap-2">
                <h3 className="text-sm font-semibold">Request</h3>
                <Headers headers={exchange.data.requestHeaders} label="Request headers" />
                <Body
                  body={exchange.data.requestBody}
                  bytes={exchange.data.requestBodyBytes}
                  label="Request body"
                  streamed={attempt.method === "PUT"}
                />
              </section>
              <section aria-label="Response" className="flex flex-col gap-2">
                <h3 className="text-sm font-semibold">Response</h3>
                {exchange.data.responseHeaders === null ? (
                  <p className="text-sm text-slate-600">No response: {attempt.error ?? "the request did not complete"}.</p>
                ) : (
                  <>
                    <Headers headers={exchange.data.responseHeaders} label="Response headers" />
                    <Body body={exchange.data.responseBody} bytes={exchange.data.responseBodyBytes} label="Response body" />
                  </>
                )}
              </section>
              <p className="text-xs text-slate-600">
                Secrets are removed before anything is stored; bodies are cut to 4 KB (the size is the full one).
              </p>
            </>
          )}
        </SheetContent>
      ) : null}
    </Sheet>
  );
}
