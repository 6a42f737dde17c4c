import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import type { SourceState, syncSessions } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { getPreviewRuns } from "@/lib/preview/read-preview";
import { requestPreview } from "@/lib/preview/request-preview";
import { systemContext } from "@/lib/operations/context";
import type { SourceReader } from "@/lib/source/source-reader";
import type { SessionFence } from "../session-fence";
import { isPending, type StepRow } from "../session-steps";
import { createSessionRecords, type SessionRecords, type SkippedCounts } from "./session-records";
import { anythingAccepted } from "@/lib/sync/synced-records/lookups";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import type { DateTimeStyle } from "@/lib/upstream/formats";

type Session = typeof syncSessions.$inferSelect;

/**
 * A first sync (the upstream holds nothing of the location) is sent straight from the source: nothing is stored
 * before it is sent. So is every resume of one, and every scoped replay. Decided once, before anything is sent: a
 * takeover keeps the decision.
 */
export async function decideStreamed(
  db: Database,
  fence: SessionFence,
  input: { session: Session; resumedStreamed: boolean; observe: () => Promise<SourceState> },
): Promise<boolean> {
  const { session } = input;
  if (session.streamed) return true;
  // A session that already computed its preview (a takeover of one) goes on from it.
  if (session.previewRunId) return false;
  const resume = input.resumedStreamed;
  const replay = session.replay !== null;
  const streamed = replay || resume || !(await anythingAccepted(db, session.locationId));
  if (!streamed) return false;
  // A resume read the source only from its failed step on, a replay only its steps: neither is a base for a quiet session.
  const state = resume || replay ? null : await input.observe();
  await fence.write((tx) =>
    tx.execute(
      sql`update sync_sessions set streamed = true, source_state = ${state ? JSON.stringify(state) : null}::jsonb where id = ${fence.sessionId}`,
    ),
  );
  return true;
}

export interface StreamedSource {
  records: SessionRecords;
  /** The session's clock: today, the horizons and the openings window follow from it (a takeover keeps it). */
  now: Date;
}

export function requireSourceKey(location: { sourceKey: string | null }): string {
  if (location.sourceKey) return location.sourceKey;
  throw new DomainError(
    "CONFLICT",
    "This location has no source key: support sets it (Edit location) to say which location of the management system it reads.",
  );
}

export function streamedSource(
  location: { id: string; sourceKey: string | null; timeZone: string; country: string; automotive: boolean; dateTimeStyle: DateTimeStyle },
  input: { reader: SourceReader; now: Date; carriedSkipped?: Partial<Record<PreviewRecordType, SkippedCounts>> },
): StreamedSource {
  const { reader, now, carriedSkipped } = input;
  return { records: createSessionRecords({ reader, location: { ...location, sourceKey: requireSourceKey(location) }, now, carriedSkipped }), now };
}

const targetSteps: readonly PreviewRecordType[] = ["calendars", "service_categories", "services", "contact_details"];

/**
 * Types others name whose step does not run now are read through the checks first (done before a takeover: the
 * upstream accepted what this session read). A catalogue step left out of the session (by the person or a replay's
 * scope) sends nothing the source added since: the checks take what the upstream holds of it (`held`), as they do
 * for `heldInstead` (a quiet session's contacts, which its step gives them). Returns whether the source has usable
 * records of a left-out type that the upstream lacks: what names them is then sent otherwise than a full sync would.
 */
export async function primeUnsentTargets(
  records: SessionRecords,
  steps: readonly StepRow[],
  held: (type: PreviewRecordType) => Promise<ReadonlySet<string>>,
  heldInstead: readonly PreviewRecordType[] = [],
): Promise<boolean> {
  let lacking = false;
  for (const type of targetSteps) {
    if (heldInstead.includes(type)) continue;
    const step = steps.find((candidate) => candidate.name === type);
    if (step?.status === "skipped" && type !== "contact_details") {
      const keys = await held(type);
      records.useHeld(type, keys);
      if (!lacking) lacking = [...(await records.usableKeys(type))].some((key) => !keys.has(key));
    } else if (!step || !isPending(step)) await records.prime(type);
  }
  return lacking;
}

/**
 * Starts the location's preview in the background unless the page has one to show or one runs (getPreviewRuns): a
 * run that succeeded before a database crash emptied the preview's tables shows nothing, so it does not count.
 */
export async function requestFirstPreview(db: Database, locationId: string): Promise<void> {
  const { shown, active } = await getPreviewRuns(db, locationId);
  if (shown || active) return;
  try {
    await requestPreview(systemContext(db), { locationId, requestedByEmail: null });
  } catch (error) {
    console.error(`[sync] could not queue the first preview of ${locationId}: ${describeErrorForLog(error)}`);
  }
}
