"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { mutateApi } from "@/lib/queries/api-mutation";
import { invalidateSyncViews } from "@/lib/queries/invalidate";
import type { StartedSession } from "@/lib/sync/start-manual-session";
import type { StartSessionInput } from "@/lib/sync/session-inputs";
import { optionalStepNames, type OptionalStepName } from "@/lib/sync/step-names";
import { isOutsideSyncWindow } from "@/lib/sync/sync-window";
import { stepLabels } from "./session-labels";

export const OUTSIDE_WINDOW_WARNING =
  "Text messages are not delivered after 9pm or before 9am; a sync now may trigger campaigns outside business hours.";

type Outcome = { tone: "success" | "error"; text: string } | null;

/** "Sync now" and "Full resync" with a choice of the optional steps, each behind a confirmation. */
export function SyncPanel({ locationId, timeZone, outsideWindowAtRender }: { locationId: string; timeZone: string; outsideWindowAtRender: boolean }) {
  const queryClient = useQueryClient();
  const [steps, setSteps] = useState<OptionalStepName[]>([...optionalStepNames]);
  const [outcome, setOutcome] = useState<Outcome>(null);
  // The server's answer first (no hydration mismatch), then checked again whenever the person reaches for the buttons.
  const [outsideWindow, setOutsideWindow] = useState(outsideWindowAtRender);
  const recheckWindow = () => setOutsideWindow(isOutsideSyncWindow(timeZone));
  const start = useMutation({
    mutationFn: (full: boolean) => {
      const input: StartSessionInput = { full, optionalSteps: steps };
      return mutateApi<StartedSession>("POST", `/api/locations/${locationId}/sessions`, input);
    },
    onSuccess: (_data, full) => setOutcome({ tone: "success", text: full ? "Full resync started." : "Sync started." }),
    onError: (error) => setOutcome({ tone: "error", text: error.message }),
    onSettled: () => invalidateSyncViews(queryClient),
  });
  const pending = start.isPending;

  function toggle(step: OptionalStepName, checked: boolean) {
    setSteps((current) => optionalStepNames.filter((name) => (name === step ? checked : current.includes(name))));
  }

  const warning = outsideWindow ? (
    <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-amber-950" role="note">
      {OUTSIDE_WINDOW_WARNING}
    </p>
  ) : null;
  const chosen = steps.length ? steps.map((step) => stepLabels[step]).join(", ") : "none";
  return (
    <div className="flex flex-col gap-3">
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-slate-800">Optional steps</legend>
        {optionalStepNames.map((step) => (
          <label key={step} className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={steps.includes(step)} onChange={(event) => toggle(step, event.target.checked)} />
            {stepLabels[step]}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-2" onPointerEnter={recheckWindow} onFocus={recheckWindow}>
        <ConfirmDialog
          trigger="Sync now"
          title="Sync this location now?"
          confirmLabel="Start the sync"
          variant="default"
          onConfirm={() => start.mutate(false)}
          disabled={pending}
        >
          <p>Sends new and changed records. Optional steps: {chosen}.</p>
          {warning}
        </ConfirmDialog>
        <ConfirmDialog
          trigger="Full resync"
          title="Resync everything?"
          confirmLabel="Start the full resync"
          variant="default"
          onConfirm={() => start.mutate(true)}
          disabled={pending}
        >
          <p>Sends every contact again, not only the changed ones. Optional steps: {chosen}.</p>
          {warning}
        </ConfirmDialog>
      </div>
    </div>
  );
}
