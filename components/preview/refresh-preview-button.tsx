"use client";

import { Button } from "@/components/ui/button";
import { useRequestPreview } from "./use-request-preview";

export function RefreshPreviewButton({ locationId }: { locationId: string }) {
  const { pending, error, request } = useRequestPreview(locationId);
  return (
    <div className="flex items-center gap-2">
      {error ? <span className="text-sm text-red-700">{error}</span> : null}
      <Button variant="secondary" disabled={pending} onClick={() => request({})}>
        {pending ? "Starting…" : "Refresh preview"}
      </Button>
    </div>
  );
}
