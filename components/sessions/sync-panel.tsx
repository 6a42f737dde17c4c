"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { mutateApi } from "@/lib/queries/api-mutation";
import { invalidateSyncViews } from "@/lib/queries/invalidate";
import type { StartedSession } from "@/lib/sync/start-manual-session";
import type { StartSessionInput } from "@/lib/sync/session-inputs";
import { optionalStepNames, type OptionalStepName } from "@/lib/sync/step-names";
import { OutsideWindowNote, useOutsideSyncWindow } from "./outside-window-note";
import { stepLabels } from "./session-labels";

/**
 * "Sync now" (the location page's primary action) and "Full resync" beside it, each behind a confirmation in
 * which the optional steps are chosen; the outcome is a toast. `disabledReason` disables both and says why.
 */
export function SyncPanel({
  locationId,
  timeZone,
  outsideWindowAtRender,
  disabledReason,
}: {
  locationId: string;
  timeZone: string;
  outsideWindowAtRender: boolean;
  disabledReason: string | null;
}) {
  const queryClient = useQueryClient();
  const [steps, setSteps] = useState<OptionalStepName[]>([...optionalStepNames]);
  const { outside: outsideWindow, recheck: recheckWindow } = useOutsideSyncWindow(timeZone, outsideWindowAtRender);
  const start = useMutation({
    mutationFn: (full: boolean) => {
      const input: StartSessionInput = { full, optionalSteps: steps };
      return mutateApi<StartedSession>("POST", `/api/locations/${locationId}/sessions`, input);
    },
    onSuccess: (_data, full) => toast.success(full ? "Full resync started." : "Sync started."),
    onError: (error) => toast.error(error.message),
    onSettled: () => invalidateSyncViews(queryClient),
  });
  const disabled = start.isPending || disabledReason !== null;

  function toggle(step: OptionalStepName, checked: boolean) {
    setSteps((current) => optionalStepNames.filter((name) => (name === step ? checked : current.includes(name))));
  }

  const details = (what: string) => (
    <>
      <p>{what}</p>
      <fieldset className="mt-3 flex flex-col gap-1">
        <legend className="text-sm font-medium text-slate-800">Optional steps</legend>
        {optionalStepNames.map((step) => (
          <label key={step} className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={steps.includes(step)} onChange={(event) => toggle(step, event.target.checked)} />
            {stepLabels[step]}
          </label>
        ))}
      </fieldset>
      {outsideWindow ? <OutsideWindowNote action="a sync" className="mt-2" /> : null}
    </>
  );
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap gap-2" onPointerEnter={recheckWindow} onFocus={recheckWindow}>
        <ConfirmDialog
          trigger="Sync now"
          triggerVariant="default"
          title="Sync this location now?"
          confirmLabel="Start the sync"
          variant="default"
          onConfirm={() => start.mutate(false)}
          disabled={disabled}
        >
          {details("Sends new and changed records.")}
        </ConfirmDialog>
        <ConfirmDialog
          trigger="Full resync"
          title="Resync everything?"
          confirmLabel="Start the full resync"
          variant="default"
          onConfirm={() => start.mutate(true)}
          disabled={disabled}
        >
          {details("Sends every contact again, not only the changed ones.")}
        </ConfirmDialog>
      </div>
      {disabledReason ? <p className="text-xs text-slate-600">{disabledReason}</p> : null}
    </div>
  );
}
