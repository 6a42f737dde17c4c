import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";

/** After a session starts, stops, resumes or closes: every view of locations, sessions and the fleet reads again. */
export function invalidateSyncViews(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.locations }),
    client.invalidateQueries({ queryKey: queryKeys.sessions }),
    client.invalidateQueries({ queryKey: queryKeys.fleet }),
  ]).then(() => undefined);
}
