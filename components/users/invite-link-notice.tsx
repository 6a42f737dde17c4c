"use client";

import { Time } from "@/components/time/time";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export function InviteLinkNotice({
  email,
  path,
  expiresAt,
  kind = "Invite link",
}: {
  email: string;
  path: string;
  expiresAt: string;
  kind?: "Invite link" | "Password reset link";
}) {
  const [copied, setCopied] = useState(false);
  const url = typeof window === "undefined" ? path : `${window.location.origin}${path}`;
  return (
    <Alert tone="success">
      <p className="font-medium">
        {kind} for {email}
      </p>
      <p className="mt-1">
        Send this link to them; it works once and expires <Time value={expiresAt} timeZone="UTC" />. It is not shown again.
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="block break-all rounded bg-white px-2 py-1 text-xs text-slate-900" data-testid="invite-link">
          {url}
        </code>
        <Button
          size="sm"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(url).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </Button>
      </div>
    </Alert>
  );
}
