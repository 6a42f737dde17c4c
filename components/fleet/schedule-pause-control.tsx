"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ApiProblem, mutateApi } from "@/lib/queries/api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";

/** Pause (with a reason, in the dashboard's AlertDialog) or resume a location's daily schedule; the fleet and the location read again. */
export function SchedulePauseControl({ locationId, locationName, paused }: { locationId: string; locationName: string; paused: boolean }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const ids = useId();
  const [error, setError] = useState<string | null>(null);
  const schedule = useMutation({
    mutationFn: (body: { paused: boolean; reason?: string }) => mutateApi("POST", `/api/locations/${locationId}/schedule`, body),
    onSuccess: (_data, body) => {
      setError(null);
      if (body.paused) setAsking(false);
      toast.success(body.paused ? `The daily sync of ${locationName} is paused.` : `The daily sync of ${locationName} is resumed.`);
    },
    onError: (problem) => setError((problem instanceof ApiProblem ? problem.fieldErrors.reason : undefined) ?? problem.message),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.fleet }),
        queryClient.invalidateQueries({ queryKey: queryKeys.location(locationId) }),
      ]),
  });
  const pending = schedule.isPending;
  const send = (body: { paused: boolean; reason?: string }) => schedule.mutate(body);

  function onPause(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "");
    send({ paused: true, reason });
  }

  if (paused) {
    return (
      <div className="flex flex-col items-start gap-1">
        <Button
          variant="secondary"
          size="sm"
          disabled={pending}
          onClick={() => send({ paused: false })}
          aria-label={`Resume schedule of ${locationName}`}
        >
          Resume schedule
        </Button>
        {error ? <span className="text-xs text-red-700">{error}</span> : null}
      </div>
    );
  }
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setAsking(true)} aria-label={`Pause the schedule of ${locationName}`}>
        Pause
      </Button>
      <AlertDialog open={asking} onOpenChange={setAsking}>
        <AlertDialogContent>
          <form onSubmit={onPause} className="flex flex-col gap-3">
            <AlertDialogTitle>Pause the daily sync of {locationName}?</AlertDialogTitle>
            <AlertDialogDescription>
              <p>Scheduled syncs stop until someone resumes them. Manual syncs still run.</p>
            </AlertDialogDescription>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${ids}-reason`}>Why</Label>
              <Input id={`${ids}-reason`} name="reason" required maxLength={500} aria-invalid={error ? true : undefined} />
            </div>
            {error ? <Alert tone="error">{error}</Alert> : null}
            <AlertDialogFooter>
              <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
              <Button type="submit" disabled={pending}>
                Pause schedule
              </Button>
            </AlertDialogFooter>
          </form>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
