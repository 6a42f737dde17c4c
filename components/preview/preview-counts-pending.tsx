"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { previewRunsQueryOptions } from "@/lib/queries/preview-queries";

/**
 * Shown while the counts are being counted: the preview-runs query polls until the shown run was counted again
 * (its `countedAt` changed), and then the page, rendered on the server, is rendered once more with the new counts.
 */
export function PreviewCountsPending({ locationId, countedAt, message }: { locationId: string; countedAt: string | null; message: string }) {
  const router = useRouter();
  const { data } = useQuery(previewRunsQueryOptions(locationId, { countedAt }));
  const counted = Boolean(data?.shown && data.shown.countedAt !== countedAt);
  useEffect(() => {
    if (counted) router.refresh();
  }, [counted, router]);

  return (
    <p role="status" aria-live="polite" className="text-sm text-slate-600">
      {message}
    </p>
  );
}
