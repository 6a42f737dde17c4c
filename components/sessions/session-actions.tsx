"use client";

import { isInFlight } from "@/lib/queries/session-queries";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Permissions } from "@/lib/auth/permissions";
import { mutateApi } from "@/lib/queries/api-mutation";
import { invalidateSyncViews } from "@/lib/queries/invalidate";
import { OutsideWindowNote, useOutsideSyncWindow } from "./outside-window-note";

export const CLOSE_UPSTREAM_EXPLANATION =
  "Closing tells the Marketing Automation Service that the sync is finished: it processes what it received and may send campaigns from it. Only close a session you will not resume.";

type Outcome = { tone: "success" | "error"; text: string } | null;

/** Whether the viewer may take any of SessionActions' actions (`permissions`: computed on the server; the API checks again). */
export function mayActOnSessions(permissions: Permissions): boolean {
  return permissions["sync.resume"] || permissions["sync.cancel"] || permissions["sync.close-upstream"];
}

/**
 * Resume, Cancel and Close upstream session, each for those whose `permissions` allow it (support and admin).
 * After resuming, `openResumed` goes to the new session's page; otherwise the live views of sessions read again.
 * Outside the location's sync window (`timeZone`), resuming and closing say that they may trigger campaigns at night,
 * and Resume asks first (inside it, one click).
 */
export function SessionActions({
  session,
  timeZone,
  permissions,
  openResumed = false,
}: {
  session: { id: string; status: string; upstreamOpen: boolean };
  timeZone: string;
  permissions: Permissions;
  openResumed?: boolean;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const inFlight = isInFlight(session.status);
  const canCancel = permissions["sync.cancel"] && inFlight;
  const canResume = permissions["sync.resume"] && (session.status === "failed" || session.status === "cancelled");
  const canClose = permissions["sync.close-upstream"] && session.upstreamOpen && !inFlight;
  const { outside: outsideWindow } = useOutsideSyncWindow(timeZone);
  const texts = {
    cancel: "Cancel requested: the session stops before its next request.",
    resume: "Resumed: a new session continues from the failed step.",
    "close-upstream": "The upstream session is closed.",
  };
  const mutation = useMutation({
    mutationFn: (action: "cancel" | "resume" | "close-upstream") =>
      mutateApi<{ sessionId?: string }>("POST", `/api/sessions/${session.id}/${action}`, {}),
    onSuccess: async (data, action) => {
      setOutcome(null);
      toast.success(texts[action]);
      if (action === "resume" && openResumed && data.sessionId) router.push(`/sessions/${data.sessionId}`);
      await invalidateSyncViews(queryClient);
    },
    onError: (error) => {
      setOutcome({ tone: "error", text: error.message });
      toast.error(error.message);
    },
  });
  const pending = mutation.isPending;
  const act = (action: "cancel" | "resume" | "close-upstream") => mutation.mutate(action);

  if (!canCancel && !canResume && !canClose) return outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null;
  return (
    <div className="flex flex-col gap-3">
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {canResume && outsideWindow ? (
          <ConfirmDialog
            trigger="Resume sync"
            triggerVariant="default"
            title="Resume this sync outside business hours?"
            confirmLabel="Resume sync"
            variant="default"
            onConfirm={() => act("resume")}
            disabled={pending}
          >
            <p>A new session continues from the step this one stopped in.</p>
            <OutsideWindowNote action="resuming" />
          </ConfirmDialog>
        ) : canResume ? (
          <Button onClick={() => act("resume")} disabled={pending}>
            Resume sync
          </Button>
        ) : null}
        {canCancel ? (
          <ConfirmDialog
            trigger="Cancel session"
            title="Cancel this sync?"
            confirmLabel="Cancel the sync"
            onConfirm={() => act("cancel")}
            disabled={pending}
          >
            The session stops before its next request. What was sent stays sent; Resume sync continues from the step it stopped in.
          </ConfirmDialog>
        ) : null}
        {canClose ? (
          <ConfirmDialog
            trigger="Close upstream session"
            title="Close the upstream session?"
            confirmLabel="Close upstream session"
            onConfirm={() => act("close-upstream")}
            disabled={pending}
          >
            <p>{CLOSE_UPSTREAM_EXPLANATION}</p>
            {outsideWindow ? <OutsideWindowNote action="closing it" /> : null}
          </ConfirmDialog>
        ) : null}
      </div>
      {canClose ? <p className="text-xs text-slate-600">{CLOSE_UPSTREAM_EXPLANATION}</p> : null}
      {canResume && outsideWindow ? <OutsideWindowNote action="resuming" /> : null}
    </div>
  );
}
