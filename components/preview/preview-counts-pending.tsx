"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Shown while the counts are being counted: polls the shown run every 2 s and reloads the page once it was counted again. */
export function PreviewCountsPending({ locationId, countedAt, message }: { locationId: string; countedAt: string | null; message: string }) {
  const router = useRouter();

  useEffect(() => {
    const timer = setInterval(async () => {
      const response = await fetch(`/api/locations/${locationId}/preview`, { headers: { accept: "application/json" } }).catch(() => null);
      if (!response?.ok) return;
      const state = (await response.json()) as { shown: { countedAt: string | null } | null };
      if (state.shown && state.shown.countedAt !== countedAt) {
        clearInterval(timer);
        router.refresh();
      }
    }, 2000);
    return () => clearInterval(timer);
  }, [locationId, countedAt, router]);

  return (
    <p role="status" aria-live="polite" className="text-sm text-slate-600">
      {message}
    </p>
  );
}
