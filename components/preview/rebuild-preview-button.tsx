"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { callApi } from "@/lib/http/api-client";

/** Support's "Rebuild preview": every source row mapped again, behind a confirmation (it can take minutes). */
export function RebuildPreviewButton({ locationId, disabled }: { locationId: string; disabled?: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex items-center gap-2">
      {error ? <span className="text-sm text-red-700">{error}</span> : null}
      <ConfirmDialog
        trigger="Rebuild preview"
        title="Rebuild the preview?"
        confirmLabel="Rebuild"
        variant="default"
        disabled={disabled || pending}
        onConfirm={async () => {
          setPending(true);
          const result = await callApi("POST", `/api/locations/${locationId}/preview`, { rebuild: true });
          setPending(false);
          if (!result.ok) return setError(result.detail);
          setError(null);
          router.refresh();
        }}
      >
        <p>Maps every record of this location again, not only the ones changed since the last preview. For a big location this may take minutes.</p>
      </ConfirmDialog>
    </div>
  );
}
