"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/http/api-client";

export function RefreshPreviewButton({ locationId }: { locationId: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex items-center gap-2">
      {error ? <span className="text-sm text-red-700">{error}</span> : null}
      <Button
        variant="secondary"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          const result = await callApi("POST", `/api/locations/${locationId}/preview`, {});
          setPending(false);
          if (!result.ok) return setError(result.detail);
          setError(null);
          router.refresh();
        }}
      >
        {pending ? "Starting…" : "Refresh preview"}
      </Button>
    </div>
  );
}
