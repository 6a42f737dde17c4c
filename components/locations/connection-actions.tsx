"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { mutateApi } from "@/lib/queries/api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";

type Outcome = { tone: "success" | "error"; text: string } | null;

/** Reconnect, Test connection and Disconnect; each result reads the location's live state again. */
export function ConnectionActions({ locationId, connected }: { locationId: string; connected: boolean }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const onSettled = () => queryClient.invalidateQueries({ queryKey: queryKeys.location(locationId) });
  const test = useMutation({
    mutationFn: () => mutateApi<{ ok: boolean; message: string }>("POST", `/api/locations/${locationId}/connection/test`, {}),
    onSuccess: (data) => setOutcome({ tone: data.ok ? "success" : "error", text: data.message }),
    onError: (error) => setOutcome({ tone: "error", text: error.message }),
    onSettled,
  });
  const disconnect = useMutation({
    mutationFn: () => mutateApi("DELETE", `/api/locations/${locationId}/connection`),
    onSuccess: () => {
      setOutcome(null);
      toast.success("Disconnected. The location token was deleted.");
    },
    onError: (error) => toast.error(error.message),
    onSettled,
  });
  const pending = test.isPending || disconnect.isPending;

  return (
    <div className="flex flex-col gap-3">
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Link href={`/locations/${locationId}/connect`} className={buttonVariants({ variant: connected ? "secondary" : "default" })}>
          {connected ? "Reconnect" : "Connect"}
        </Link>
        {connected ? (
          <>
            <Button variant="secondary" onClick={() => test.mutate()} disabled={pending}>
              {test.isPending ? "Testing…" : "Test connection"}
            </Button>
            <ConfirmDialog
              trigger="Disconnect"
              title="Disconnect this location?"
              confirmLabel="Disconnect"
              onConfirm={() => disconnect.mutate()}
              disabled={pending}
            >
              The location token is deleted. Syncs stop until the owner connects the location again with their Marketing Automation Service email and
              password.
            </ConfirmDialog>
          </>
        ) : null}
      </div>
    </div>
  );
}
