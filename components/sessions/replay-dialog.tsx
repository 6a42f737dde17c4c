"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ApiProblem, mutateApi } from "@/lib/queries/api-mutation";
import { invalidateSyncViews } from "@/lib/queries/invalidate";
import { locationLiveQueryOptions } from "@/lib/queries/location-live-queries";
import type { ReplayInput } from "@/lib/sync/session-inputs";
import { replayStepNames, type ReplayStepName } from "@/lib/sync/step-names";
import { stepLabels } from "./session-labels";

/**
 * "Replay…": support and engineers send one or more steps again (appointments: of a date range), inside an upstream
 * session of their own, saying why. The answer opens the replay's session page.
 */
export function ReplayDialog({ locationId, automotive }: { locationId: string; automotive: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: live } = useQuery(locationLiveQueryOptions(locationId));
  const [open, setOpen] = useState(false);
  const [steps, setSteps] = useState<ReplayStepName[]>(["appointments"]);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [reason, setReason] = useState("");
  const choosable = replayStepNames.filter((step) => step !== "vehicles" || automotive);
  const ranged = steps.length === 1 && steps[0] === "appointments";
  const replay = useMutation({
    mutationFn: (input: ReplayInput) => mutateApi<{ sessionId: string }>("POST", `/api/locations/${locationId}/replays`, input),
    onSuccess: ({ sessionId }) => {
      toast.success("Replay started.");
      setOpen(false);
      router.push(`/sessions/${sessionId}`);
    },
    onSettled: () => invalidateSyncViews(queryClient),
  });
  const fieldErrors = replay.error instanceof ApiProblem ? replay.error.fieldErrors : {};
  const disabledReason = !live?.location.connected ? "Connect the location first." : live.open ? "A sync is in progress." : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    replay.mutate({ steps, reason, ...(ranged && from ? { from } : {}), ...(ranged && to ? { to } : {}) });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), replay.reset())}>
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabledReason !== null} title={disabledReason ?? undefined}>
          <RotateCcw aria-hidden="true" className="size-4" />
          Replay…
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Send steps again</DialogTitle>
        <DialogDescription>
          Reads the chosen steps from the source and sends them again inside an upstream session of their own: every record, also those the upstream
          already holds. Nothing else is sent.
        </DialogDescription>
        <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Replay">
          <fieldset className="flex flex-col gap-1">
            <legend className="text-sm font-medium text-slate-800">Steps</legend>
            {choosable.map((step) => (
              <label key={step} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={steps.includes(step)}
                  onChange={(event) =>
                    setSteps((current) => replayStepNames.filter((name) => (name === step ? event.target.checked : current.includes(name))))
                  }
                />
                {stepLabels[step]}
              </label>
            ))}
            {fieldErrors.steps ? <p className="text-sm text-red-800">{fieldErrors.steps}</p> : null}
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-1">
              <Label htmlFor="replay-from">Appointments from</Label>
              <Input id="replay-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} disabled={!ranged} />
              {fieldErrors.from ? <p className="text-sm text-red-800">{fieldErrors.from}</p> : null}
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="replay-to">to</Label>
              <Input id="replay-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} disabled={!ranged} />
              {fieldErrors.to ? <p className="text-sm text-red-800">{fieldErrors.to}</p> : null}
            </div>
          </div>
          <p className="text-xs text-slate-600">
            {ranged ? "Empty dates: the whole history up to 6 months ahead." : "A date range applies to the appointments step alone."}
          </p>
          <div className="flex flex-col gap-1">
            <Label htmlFor="replay-reason">Why (kept in the history and the audit log)</Label>
            <textarea
              id="replay-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              rows={3}
              maxLength={500}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
            />
            {fieldErrors.reason ? <p className="text-sm text-red-800">{fieldErrors.reason}</p> : null}
          </div>
          {replay.error && !Object.keys(fieldErrors).length ? (
            <p className="text-sm text-red-800" role="alert">
              {replay.error.message}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={replay.isPending || steps.length === 0}>
              {replay.isPending ? "Starting…" : "Start the replay"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
