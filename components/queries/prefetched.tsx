import { dehydrate, HydrationBoundary, QueryClient, type QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";

/**
 * Hands data a server page already read to the browser's React Query cache under its query keys (lib/queries),
 * so the client components show it at once and poll from there.
 */
export function Prefetched({ entries, children }: { entries: { queryKey: QueryKey; data: unknown }[]; children: ReactNode }) {
  const client = new QueryClient();
  for (const entry of entries) client.setQueryData(entry.queryKey, entry.data);
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
