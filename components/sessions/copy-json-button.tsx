"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { sessionQueryOptions } from "@/lib/queries/session-queries";

/** Copies the whole session as GET /api/sessions/[id] answers it, for a bug report. */
export function CopyJsonButton({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState("");

  async function copy() {
    // Read again (staleTime 0): the copy is the session as it is now, parsed with the route's schema.
    const view = await queryClient.fetchQuery({ ...sessionQueryOptions(sessionId), staleTime: 0 }).catch(() => null);
    if (!view) {
      setMessage("The session could not be loaded.");
      return;
    }
    const json = JSON.stringify(view, null, 2);
    try {
      await navigator.clipboard.writeText(json);
      setMessage("Copied the session as JSON.");
    } catch {
      setMessage("The browser refused the clipboard.");
    }
  }

  return (
    <div className="flex items-center gap-2">
      <Button variant="secondary" onClick={copy}>
        Copy as JSON
      </Button>
      <span role="status" className="text-sm text-slate-600">
        {message}
      </span>
    </div>
  );
}
