"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useApiMutation } from "@/components/queries/use-api-mutation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { queryKeys } from "@/lib/queries/query-keys";
import { sandboxFaultsQueryOptions } from "@/lib/queries/sandbox-queries";
import type { FaultMode } from "@/lib/sandbox/fault-inputs";

const modes: Record<string, { label: string; mode: FaultMode }> = {
  "status-503": { label: "Answer 503 Service Unavailable", mode: { kind: "status", status: 503 } },
  "status-500": { label: "Answer 500 Internal Server Error", mode: { kind: "status", status: 500 } },
  "status-502": { label: "Answer 502 Bad Gateway", mode: { kind: "status", status: 502 } },
  "status-404": { label: "Answer 404 Not Found", mode: { kind: "status", status: 404 } },
  "rate-limit": { label: "Answer 429 with Retry-After: 1 s", mode: { kind: "rate-limit", retryAfterSeconds: 1 } },
  delay: { label: "Answer after a 3 s delay", mode: { kind: "delay", ms: 3000 } },
  reset: { label: "Reset the connection mid-answer", mode: { kind: "reset" } },
  miscount: { label: "Keep an upload but answer a wrong count", mode: { kind: "miscount" } },
};

function describeMode(mode: FaultMode): string {
  if (mode.kind === "status") return `answers ${mode.status}`;
  if (mode.kind === "rate-limit") return `answers 429, Retry-After ${mode.retryAfterSeconds} s`;
  if (mode.kind === "delay") return `answers after ${mode.ms.toLocaleString("en")} ms`;
  if (mode.kind === "miscount") return "keeps an upload, answers a wrong count";
  return "resets the connection";
}

/**
 * Inject and clear faults in the built-in sandbox, so that the next sync visibly fails and, once cleared, recovers.
 * Shown only where faults are on (never in production mode); `canChange`: the viewer may inject and clear.
 */
export function SandboxFaults({ canChange }: { canChange: boolean }) {
  const { data } = useQuery(sandboxFaultsQueryOptions());
  const mutation = useApiMutation([queryKeys.sandboxFaults]);
  const [target, setTarget] = useState("batch_sync_services");
  const [mode, setMode] = useState("status-503");
  const [count, setCount] = useState("");
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  if (!data || !data.enabled) return null;

  async function inject(event: FormEvent) {
    event.preventDefault();
    const times = count.trim() === "" ? undefined : Number(count);
    const result = await mutation.mutateAsync({
      method: "POST",
      url: "/api/sandbox/faults",
      body: { target, mode: modes[mode]!.mode, count: times },
    });
    setMessage(
      result.ok
        ? { tone: "success", text: `Armed: ${target} ${describeMode(modes[mode]!.mode)} ${times ? `for the next ${times}` : "until cleared"}.` }
        : { tone: "error", text: result.detail },
    );
  }

  async function clear(id?: number) {
    const result = await mutation.mutateAsync({ method: "DELETE", url: `/api/sandbox/faults${id ? `?id=${id}` : ""}` });
    setMessage(result.ok ? { tone: "success", text: id ? "Fault cleared." : "All faults cleared." } : { tone: "error", text: result.detail });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Faults</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="text-sm text-slate-700">
          The built-in sandbox can fail on purpose: arm a fault, run a sync and watch it fail on the session page; clear it and resume to see it
          recover. Only in the demo, never in production mode.
        </p>
        {canChange ? (
          <form onSubmit={inject} className="grid gap-3 sm:grid-cols-[1fr_1fr_8rem_auto] sm:items-end" aria-label="Inject a fault">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="fault-target">Endpoint</Label>
              <Select id="fault-target" value={target} onChange={(event) => setTarget(event.target.value)}>
                {data.targets.map((name) => (
                  <option key={name} value={name}>
                    {name === "upload" ? "upload (PUT to an upload address)" : name}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="fault-mode">Fault</Label>
              <Select id="fault-mode" value={mode} onChange={(event) => setMode(event.target.value)}>
                {Object.entries(modes).map(([key, { label }]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="fault-count">Times</Label>
              <Input
                id="fault-count"
                inputMode="numeric"
                pattern="[0-9]*"
                placeholder="until cleared"
                value={count}
                onChange={(event) => setCount(event.target.value)}
              />
            </div>
            <Button type="submit" disabled={mutation.isPending}>
              Inject fault
            </Button>
          </form>
        ) : null}
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
        {data.faults.length === 0 ? (
          <p className="text-sm text-slate-600">No fault armed: the sandbox answers normally.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Armed faults">
            {data.faults.map((fault) => (
              <li key={fault.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                <span>
                  <code className="text-xs">{fault.target}</code> {describeMode(fault.mode)},{" "}
                  {fault.remaining === null ? "until cleared" : `${fault.remaining} more ${fault.remaining === 1 ? "time" : "times"}`}
                </span>
                {canChange ? (
                  <Button variant="secondary" size="sm" onClick={() => clear(fault.id)} aria-label={`Clear the ${fault.target} fault`}>
                    Clear
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {canChange && data.faults.length > 1 ? (
          <div>
            <Button variant="secondary" onClick={() => clear()}>
              Clear all faults
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
