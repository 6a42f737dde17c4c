"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { mutateApi } from "@/lib/queries/api-mutation";
import { queryKeys } from "@/lib/queries/query-keys";

/** Starts a preview run (a refresh, or a rebuild that maps every source row); the preview-runs query then follows it. */
export function useRequestPreview(locationId: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (body: { rebuild?: true }) => mutateApi("POST", `/api/locations/${locationId}/preview`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.previewRuns(locationId) }),
  });
  return { pending: mutation.isPending, error: mutation.error?.message ?? null, request: mutation.mutate };
}
