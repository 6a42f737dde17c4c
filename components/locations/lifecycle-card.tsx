"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveRestoreIcon, ArrowRightLeftIcon, Trash2Icon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Time } from "@/components/time/time";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { EnvironmentName } from "@/lib/environments/environment-inputs";
import { mutateApi } from "@/lib/queries/api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";

export interface LifecycleLocation {
  id: string;
  name: string;
  timeZone: string;
  environment: EnvironmentName;
  upstreamLocationId: string | null;
  archivedAt: string | null;
  archivedByEmail: string | null;
}

export interface LifecyclePermissions {
  archive: boolean;
  delete: boolean;
  move: boolean;
}

const otherEnvironment = (environment: EnvironmentName): EnvironmentName => (environment === "staging" ? "production" : "staging");

/** Archive / restore, delete for good (typed name), and the move to the other environment (the guided reconnect). */
export function LifecycleCard({ location, can }: { location: LifecycleLocation; can: LifecyclePermissions }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const settle = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.location(location.id) });
    router.refresh();
  };
  const archive = useMutation({
    mutationFn: () => mutateApi("POST", `/api/locations/${location.id}/archive`),
    onSuccess: () => toast.success("Archived. The location token was deleted and the schedule skips it."),
    onError: (error) => toast.error(error.message),
    onSettled: settle,
  });
  const restore = useMutation({
    mutationFn: () => mutateApi("DELETE", `/api/locations/${location.id}/archive`),
    onSuccess: () => toast.success("Restored. The owner connects it again before it syncs."),
    onError: (error) => toast.error(error.message),
    onSettled: settle,
  });
  const archived = location.archivedAt !== null;
  const pending = archive.isPending || restore.isPending;

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Lifecycle</CardTitle>
        <CardDescription>
          {archived ? "Archived: disconnected, off the schedule; its history stays readable." : `In ${location.environment}.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {archived ? (
          <Alert tone="info">
            Archived <Time value={location.archivedAt!} timeZone={location.timeZone} style="absolute" withZone />
            {location.archivedByEmail ? ` by ${location.archivedByEmail}` : ""}. It is hidden from the locations list unless you filter by
            &quot;Archived&quot;.
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {can.archive && !archived ? (
            <ConfirmDialog
              trigger="Archive"
              title={`Archive ${location.name}?`}
              confirmLabel="Archive"
              onConfirm={() => archive.mutate()}
              disabled={pending}
            >
              The location token is deleted and the daily schedule stops. Its sessions and history stay, read-only. You can restore it later; the
              owner then connects it again.
            </ConfirmDialog>
          ) : null}
          {can.archive && archived ? (
            <Button variant="secondary" onClick={() => restore.mutate()} disabled={pending}>
              <ArchiveRestoreIcon aria-hidden /> {restore.isPending ? "Restoring…" : "Restore"}
            </Button>
          ) : null}
          {can.move && !archived ? <MoveEnvironmentDialog location={location} onMoved={settle} /> : null}
          {can.delete && archived ? <DeleteLocationDialog location={location} /> : null}
        </div>
      </CardContent>
    </Card>
  );
}

function DeleteLocationDialog({ location }: { location: LifecycleLocation }) {
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const remove = useMutation({
    mutationFn: () => mutateApi("DELETE", `/api/locations/${location.id}`, { confirmName: typed }),
    onSuccess: () => {
      toast.success(`${location.name} was deleted for good. The audit log keeps the entry.`);
      router.push("/locations?status=archived");
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog onOpenChange={(open) => (open ? setTyped("") : undefined)}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">
          <Trash2Icon aria-hidden /> Delete for good
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete {location.name} for good?</AlertDialogTitle>
        <AlertDialogDescription>
          <p>
            Its sessions, synced records, preview, owners&apos; memberships and pending invites are deleted and cannot be restored. The audit log
            keeps an entry.
          </p>
        </AlertDialogDescription>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="delete-confirm-name">Type the location&apos;s name to confirm</Label>
          <Input
            id="delete-confirm-name"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={location.name}
          />
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" disabled={typed.trim() !== location.name || remove.isPending} onClick={() => remove.mutate()}>
            Delete for good
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function MoveEnvironmentDialog({ location, onMoved }: { location: LifecycleLocation; onMoved: () => void }) {
  const target = otherEnvironment(location.environment);
  const [upstreamLocationId, setUpstreamLocationId] = useState(location.upstreamLocationId ?? "");
  const move = useMutation({
    mutationFn: () => mutateApi("POST", `/api/locations/${location.id}/environment`, { environment: target, upstreamLocationId }),
    onSuccess: () => toast.success(`Moved to ${target}. The owner now connects the location with their ${target} account.`),
    onError: (error) => toast.error(error.message),
    onSettled: onMoved,
  });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="secondary">
          <ArrowRightLeftIcon aria-hidden /> Move to {target}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>
          Move {location.name} to {target}?
        </AlertDialogTitle>
        <AlertDialogDescription>
          <ol className="list-decimal pl-5 text-sm">
            <li>The {location.environment} location token is deleted: syncs stop.</li>
            <li>
              The location points at the {target} upstream location below; what {location.environment} holds is forgotten, so the first sync is full.
            </li>
            <li>The owner connects it again (Connect, on this page) with their {target} account.</li>
          </ol>
        </AlertDialogDescription>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="move-upstream-id">Upstream location ID in {target}</Label>
          <Input id="move-upstream-id" value={upstreamLocationId} onChange={(event) => setUpstreamLocationId(event.target.value)} />
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction disabled={!upstreamLocationId.trim() || move.isPending} onClick={() => move.mutate()}>
            Move and reconnect
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
