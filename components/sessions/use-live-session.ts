"use client";

import { useEffect, useState } from "react";
import type { SessionView } from "@/lib/sync/read-session-view";
import { isSessionInFlight } from "./session-labels";

const POLL_MS = 1000;

/**
 * The session as GET /api/sessions/[id] answers, polled once a second while it is queued or running;
 * polling stops when it ends and `onEnded` runs once. `now` ticks with each poll for elapsed times.
 * A parent that gets a newer `initial` (router.refresh) remounts it with a new key.
 */
export function useLiveSession(initial: SessionView, renderedAt: number, onEnded?: () => void): { view: SessionView; now: number } {
  const [view, setView] = useState(initial);
  // The server's clock at render: the same elapsed time on the server and in the browser's first render.
  const [now, setNow] = useState(renderedAt);
  const sessionId = initial.session.id;
  const inFlight = isSessionInFlight(view.session.status);

  useEffect(() => {
    if (!inFlight) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    // One request at a time: the next poll is scheduled when the previous answer is in.
    const poll = async () => {
      const response = await fetch(`/api/sessions/${sessionId}`, { headers: { accept: "application/json" } }).catch(() => null);
      if (stopped) return;
      setNow(Date.now());
      const next = response?.ok ? ((await response.json()) as SessionView) : null;
      if (stopped) return;
      if (next) setView(next);
      if (next && !isSessionInFlight(next.session.status)) {
        stopped = true;
        onEnded?.();
        return;
      }
      timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, inFlight, onEnded]);

  return { view, now };
}
