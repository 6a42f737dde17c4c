"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "@/lib/http/api-client";

/** Starts a preview run (a refresh, or a rebuild that maps every source row) and reloads the page's data. */
export function useRequestPreview(locationId: string) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function request(body: { rebuild?: true }) {
    setPending(true);
    const result = await callApi("POST", `/api/locations/${locationId}/preview`, body);
    setPending(false);
    if (!result.ok) return setError(result.detail);
    setError(null);
    router.refresh();
  }
  return { pending, error, request };
}
