import { queryOptions } from "@tanstack/react-query";
import { SandboxFaultsView } from "@/lib/sandbox/fault-inputs";
import { fetchParsed } from "./fetch-parsed";
import { queryKeys } from "./query-keys";

/** The sandbox's armed faults and whether faults can be injected here at all. */
export function sandboxFaultsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.sandboxFaults, queryFn: () => fetchParsed("/api/sandbox/faults", SandboxFaultsView) });
}
