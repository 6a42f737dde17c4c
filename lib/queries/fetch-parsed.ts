import type { z } from "zod";
import { callApi } from "@/lib/http/api-client";

/** A GET to our API for React Query: the answer parsed with the route's response schema; a problem or a bad shape throws. */
export async function fetchParsed<Schema extends z.ZodType>(url: string, schema: Schema): Promise<z.infer<Schema>> {
  const result = await callApi<unknown>("GET", url);
  if (!result.ok) throw new Error(result.detail);
  return schema.parse(result.data);
}

/** How often a query that shows something in flight asks again. */
export const LIVE_POLL_MS = 1000;

/**
 * How often the newest page of a list of sessions asks again while none of its sessions runs: a session the schedule
 * or another person starts shows up without a reload.
 */
export const LIST_IDLE_POLL_MS = 15_000;
