import { serviceKey } from "./record-selection";

/** One opening as the plan compares it: the service it belongs to, its key and content hash. */
export interface OpeningSummary {
  service: string;
  key: string;
  hash: string;
}

/** The service an accepted opening's key ("<service>|<calendar>|<start_at>") belongs to. */
export const serviceOfOpeningKey = (key: string) => key.split("|", 1)[0]!;

function byService(openings: Iterable<OpeningSummary>): Map<string, Map<string, string>> {
  const grouped = new Map<string, Map<string, string>>();
  for (const opening of openings) {
    const ofService = grouped.get(opening.service) ?? new Map<string, string>();
    grouped.set(opening.service, ofService);
    ofService.set(opening.key, opening.hash);
  }
  return grouped;
}

function sameOpenings(current: Map<string, string> | undefined, accepted: Map<string, string> | undefined): boolean {
  if ((current?.size ?? 0) !== (accepted?.size ?? 0)) return false;
  for (const [key, hash] of current ?? []) if (accepted?.get(key) !== hash) return false;
  return true;
}

/**
 * The openings imports of a session, as item keys: one per service the upstream holds (an openings request for any
 * other would be refused) whose sendable openings differ from the ones it last accepted — new, changed or gone
 * (an import without any empties the service). A service whose openings are exactly what the upstream holds is
 * not sent again; a full resync sends every service with openings now or before.
 */
export function openingsItems(input: {
  current: Iterable<OpeningSummary>;
  accepted: Iterable<OpeningSummary>;
  heldServices: ReadonlySet<string>;
  full: boolean;
}): string[] {
  const current = byService(input.current);
  const accepted = byService(input.accepted);
  return [...new Set([...current.keys(), ...accepted.keys()])]
    .filter((service) => service !== "" && input.heldServices.has(service))
    .filter((service) => input.full || !sameOpenings(current.get(service), accepted.get(service)))
    .sort()
    .map(serviceKey);
}
