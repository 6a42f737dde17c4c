"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/** Parameters of the preview page that only the browser's components read: changing them needs no server render. */
export type PreviewUrlChanges = Partial<Record<"q" | "status" | "cause" | "sort" | "page" | "record", string | number | undefined>>;

/**
 * The preview page's URL as state: the records table, the causes and the side panel read it, and change it with the
 * History API (Next.js keeps useSearchParams in step), so a filter applies at once and Back undoes it.
 */
export function usePreviewUrl() {
  const params = useSearchParams();
  const change = useCallback((changes: PreviewUrlChanges) => {
    const next = new URLSearchParams(window.location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === "" || (name === "page" && value === 0) || (name === "sort" && value === "source")) next.delete(name);
      else next.set(name, String(value));
    }
    // A filter shows its first page.
    if (!("page" in changes) && Object.keys(changes).some((name) => name !== "record")) next.delete("page");
    const search = next.toString();
    window.history.pushState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}`);
  }, []);
  return { params, change };
}
