"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import type { RemovalStop } from "@/db/schema";
import { ApiProblem, mutateApi } from "@/lib/queries/api-mutation";
import { invalidateSyncViews } from "@/lib/queries/invalidate";
import { OutsideWindowNote, useOutsideSyncWindow } from "./outside-window-note";

const checkWording = {
  calendars: { action: "Remove", noun: "calendars", from: "(the staff who provide services; visits would lose their staff member)" },
  service_categories: { action: "Remove", noun: "service categories", from: "from the upstream's menu" },
  services: { action: "Remove", noun: "services", from: "from the upstream's menu, with their openings" },
  contact_details: { action: "Unsubscribe", noun: "contacts", from: "from e-mail and text messages (they are no longer in the source)" },
  appointments: { action: "Remove", noun: "appointments", from: "from the upstream's history of visits" },
} as const;

/**
 * The removal safety valve stopped this session before it sent anything: what it would have removed, and for support
 * and admin "Confirm and send" (a new session allowed exactly these removals, with a reason that is audited).
 */
export function RemovalStopPanel({
  sessionId,
  stop,
  canConfirm,
  timeZone,
}: {
  sessionId: string;
  stop: RemovalStop;
  canConfirm: boolean;
  timeZone: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<{ detail: string; field?: string } | null>(null);
  const confirmation = useMutation({
    mutationFn: () => mutateApi<{ sessionId: string }>("POST", `/api/sessions/${sessionId}/confirm-removals`, { reason }),
    onSuccess: async (data) => {
      setOpen(false);
      toast.success("Removals confirmed: a new session sends them.");
      router.push(`/sessions/${data.sessionId}`);
      await invalidateSyncViews(queryClient);
    },
    onError: (error) => setProblem({ detail: error.message, field: error instanceof ApiProblem ? error.fieldErrors.reason : undefined }),
  });
  const pending = confirmation.isPending;
  const { outside: outsideWindow } = useOutsideSyncWindow(timeZone);
  const confirmRemovals = () => confirmation.mutate();

  return (
    <section
      aria-labelledby="removal-stop-title"
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <h2 id="removal-stop-title" className="text-base font-semibold">
        Needs attention: stopped before sending anything
      </h2>
      <p>
        This sync would remove much more than usual. That often means the management system&apos;s data came back empty or wrong, so nothing was sent.
      </p>
      <ul className="flex list-disc flex-col gap-1 pl-5">
        {stop.checks.map((check) => (
          <li key={check.step}>
            {checkWording[check.step].action} <strong>{check.removals.toLocaleString("en")}</strong> of the {check.held.toLocaleString("en")}{" "}
            {checkWording[check.step].noun} {checkWording[check.step].from} — the limit is {check.threshold.toLocaleString("en")}. For example:{" "}
            {check.examples.join(", ")}.
          </li>
        ))}
      </ul>
      <p>Fix the source and sync again, or, if these removals are right, confirm them.</p>
      {canConfirm ? (
        <Dialog open={open} onOpenChange={setOpen}>
          <div>
            <DialogTrigger asChild>
              <Button>Confirm and send…</Button>
            </DialogTrigger>
          </div>
          <DialogContent className="max-w-md">
            <DialogTitle>Confirm and send these removals?</DialogTitle>
            <DialogDescription>
              A new session sends everything, including these removals (no more than counted here). Your reason is kept in the audit log.
            </DialogDescription>
            <form
              className="flex flex-col gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                confirmRemovals();
              }}
            >
              {problem && !problem.field ? <Alert tone="error">{problem.detail}</Alert> : null}
              {outsideWindow ? <OutsideWindowNote action="confirming" /> : null}
              <div className="flex flex-col gap-1.5">
                <Label htmlFor={reasonId}>Why are these removals right?</Label>
                <textarea
                  id={reasonId}
                  required
                  minLength={3}
                  maxLength={500}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  aria-invalid={Boolean(problem?.field)}
                  aria-describedby={`${reasonId}-error`}
                  className="min-h-20 rounded-md border border-slate-300 px-3 py-2 text-sm"
                />
                <FieldError id={`${reasonId}-error`} message={problem?.field} />
              </div>
              <DialogFooter>
                <DialogClose asChild>
                  <Button variant="secondary">Cancel</Button>
                </DialogClose>
                <Button type="submit" variant="destructive" disabled={pending}>
                  Confirm and send
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      ) : null}
    </section>
  );
}
