"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonVariants } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { callApi } from "@/lib/http/api-client";

type Outcome = { tone: "success" | "error"; text: string } | null;

export function ConnectionActions({ locationId, connected }: { locationId: string; connected: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState<"test" | "disconnect" | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function testConnection() {
    setPending("test");
    const result = await callApi<{ ok: boolean; message: string }>("POST", `/api/locations/${locationId}/connection/test`, {});
    setPending(null);
    setOutcome(result.ok ? { tone: result.data.ok ? "success" : "error", text: result.data.message } : { tone: "error", text: result.detail });
    router.refresh();
  }

  async function disconnect() {
    setPending("disconnect");
    const result = await callApi("DELETE", `/api/locations/${locationId}/connection`);
    setPending(null);
    setOutcome(result.ok ? { tone: "success", text: "Disconnected. The location token was deleted." } : { tone: "error", text: result.detail });
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-3">
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Link href={`/locations/${locationId}/connect`} className={buttonVariants({ variant: connected ? "secondary" : "default" })}>
          {connected ? "Reconnect" : "Connect"}
        </Link>
        {connected ? (
          <>
            <Button variant="secondary" onClick={testConnection} disabled={pending !== null}>
              {pending === "test" ? "Testing…" : "Test connection"}
            </Button>
            <ConfirmDialog
              trigger="Disconnect"
              title="Disconnect this location?"
              confirmLabel="Disconnect"
              onConfirm={disconnect}
              disabled={pending !== null}
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
