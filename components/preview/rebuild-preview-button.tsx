"use client";

import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRequestPreview } from "./use-request-preview";

/** Support's "Rebuild preview": every source row mapped again, behind a confirmation (it can take minutes). */
export function RebuildPreviewButton({ locationId, disabled }: { locationId: string; disabled?: boolean }) {
  const { pending, error, request } = useRequestPreview(locationId);
  return (
    <div className="flex items-center gap-2">
      {error ? <span className="text-sm text-red-700">{error}</span> : null}
      <ConfirmDialog
        trigger="Rebuild preview"
        title="Rebuild the preview?"
        confirmLabel="Rebuild"
        variant="default"
        disabled={disabled || pending}
        onConfirm={() => void request({ rebuild: true })}
      >
        <p>Maps every record of this location again, not only the ones changed since the last preview. For a big location this may take minutes.</p>
      </ConfirmDialog>
    </div>
  );
}
