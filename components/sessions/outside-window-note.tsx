"use client";

import { useCallback, useEffect, useState } from "react";
import { isOutsideSyncWindow } from "@/lib/sync/sync-window";

/**
 * Whether it is now outside the location's sync window (spec section 8): `atRender` (the server's answer, so the first
 * render matches it) until the browser checks after the first render (the server's clock and the page's may disagree),
 * then every minute while the page stays open, and whenever `recheck` is called (a person reaching for the action).
 */
export function useOutsideSyncWindow(timeZone: string, atRender = false): { outside: boolean; recheck: () => void } {
  const [outside, setOutside] = useState(atRender);
  const recheck = useCallback(() => setOutside(isOutsideSyncWindow(timeZone)), [timeZone]);
  useEffect(() => {
    const check = () => setOutside(isOutsideSyncWindow(timeZone));
    check();
    const timer = setInterval(check, 60_000);
    return () => clearInterval(timer);
  }, [timeZone]);
  return { outside, recheck };
}

/** The warning beside an action that makes the upstream process data now, and so may send campaigns at night. */
export function OutsideWindowNote({ action, className = "" }: { action: string; className?: string }) {
  return (
    <p className={`rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 ${className}`} role="note">
      Text messages are not delivered after 9pm or before 9am; {action} now may trigger campaigns outside business hours.
    </p>
  );
}
