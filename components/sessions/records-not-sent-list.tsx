import { pluralize } from "@/lib/format/plural";
import Link from "next/link";
import type { RecordsNotSent } from "@/lib/sync/records-not-sent";
import { stepLabel } from "./session-labels";

/**
 * The records a session left out, per step, each linked to the location's preview filtered to them:
 * invalid records ("error", with the issue that stopped each) and records excluded by rule ("excluded", with the rule).
 */
export function RecordsNotSentList({ locationId, notSent }: { locationId: string; notSent: RecordsNotSent }) {
  if (notSent.total === 0) return null;
  const previewOf = (step: string, status: "error" | "excluded") => `/locations/${locationId}/preview?type=${step}&status=${status}`;
  return (
    <section aria-label="Records not sent" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">{pluralize(notSent.total, "record was", "records were")} not sent</p>
      <ul className="mt-1 flex flex-col gap-1">
        {notSent.steps.map((step) => (
          <li key={step.name}>
            {stepLabel(step.name)}:{" "}
            {step.invalid ? (
              <Link href={previewOf(step.name, "error")} className="text-amber-900 underline">
                {step.invalid.toLocaleString("en")} invalid
              </Link>
            ) : null}
            {step.invalid && step.excluded ? " · " : null}
            {step.excluded ? (
              <Link href={previewOf(step.name, "excluded")} className="text-amber-900 underline">
                {step.excluded.toLocaleString("en")} excluded by rule
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-amber-900">The links open the preview as it is now, filtered to those records and why each was left out.</p>
    </section>
  );
}
