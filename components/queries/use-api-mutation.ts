"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { callApi, type ApiResult } from "@/lib/http/api-client";

type ApiCall = { method: "POST" | "PUT" | "PATCH" | "DELETE"; url: string; body?: unknown };

/**
 * A form's call to our API as a React Query mutation. The answer comes back as an ApiResult (a problem is a value
 * with its message and field errors, for the form to show); a success invalidates `invalidates` by key.
 */
export function useApiMutation<T = unknown>(invalidates: QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation<ApiResult<T>, never, ApiCall>({
    mutationFn: ({ method, url, body }) => callApi<T>(method, url, body),
    onSuccess: (result) =>
      result.ok ? Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined) : undefined,
  });
}
