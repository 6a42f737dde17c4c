"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies the whole session as GET /api/sessions/[id] answers it, for a bug report. */
export function CopyJsonButton({ sessionId }: { sessionId: string }) {
  const [message, setMessage] = useState("");

  async function copy() {
    const response = await fetch(`/api/sessions/${sessionId}`, { headers: { accept: "application/json" } }).catch(() => null);
    if (!response?.ok) {
      setMessage("The session could not be loaded.");
      return;
    }
    const json = JSON.stringify(await response.json(), null, 2);
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
