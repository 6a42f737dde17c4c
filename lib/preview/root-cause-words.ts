import { pluralize } from "@/lib/format/plural";
import type { PreviewRecordType } from "./preview-plan";
import { recordNouns } from "./record-type-labels";
import type { RootCause, RootCauseEffect } from "./root-causes";

// How the page words a root cause (no runtime imports but plural and labels: client components use it).

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const countOf = (type: PreviewRecordType, count: number) => pluralize(count, ...recordNouns[type]);

/** "Service sv-9 is missing from the source", "Contacts: mobile_phone_number is not a valid phone number for DE". */
export function rootCauseTitle(cause: Pick<RootCause, "origin" | "reason">): string {
  const { origin } = cause;
  if (origin.kind === "missing") return `${capitalised(recordNouns[origin.type][0])} ${origin.key} is missing from the source`;
  if (origin.kind === "excluded") return `${capitalised(recordNouns[origin.type][1])} excluded by rule: ${origin.reason || "no reason given"}`;
  return `${capitalised(recordNouns[origin.type][1])}: ${origin.field} ${cause.reason ?? origin.code}`;
}

/** One effect in words: "blocks 24 openings", "281 appointments sent without it", "2 contacts sent with a warning". */
export function rootCauseEffectParts(cause: Pick<RootCause, "origin">, effect: RootCauseEffect): string[] {
  const own = cause.origin.kind !== "missing" && effect.type === cause.origin.type;
  return [
    ...(effect.notSent ? [`blocks ${countOf(effect.type, effect.notSent)}`] : []),
    ...(effect.sentWithWarning ? [`${countOf(effect.type, effect.sentWithWarning)} sent ${own ? "with a warning" : "without it"}`] : []),
  ];
}
