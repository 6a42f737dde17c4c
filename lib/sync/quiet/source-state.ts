import { sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { SourceState, syncSessions } from "@/db/schema";
import { mappingBasisOf } from "@/lib/preview/mapping-basis";
import { planPreviewReads } from "@/lib/preview/preview-plan";
import type { SourceReader } from "@/lib/source/source-reader";
import type { DateTimeStyle } from "@/lib/upstream/formats";
import { sourceFailure } from "../stream/source-failure";
import type { SessionFence } from "../session-fence";

type Location = { timeZone: string; country: string; automotive: boolean; sourceKey: string | null; dateTimeStyle?: DateTimeStyle };

/** The source as it is before a session reads it: taken first, so a change made while the session reads moves it next time. */
export async function observeSourceState(reader: SourceReader, location: Location & { sourceKey: string }, now: Date): Promise<SourceState> {
  try {
    return {
      fingerprint: await reader.fingerprint(location.sourceKey),
      mappingBasis: await mappingBasisOf(location, reader),
      appointmentsUntil: appointmentsUntilOf(location, now),
    };
  } catch (error) {
    throw sourceFailure(error, "state of the source");
  }
}

/** The end (excluded, local wall time) of the appointment window a session at `now` reads. */
export function appointmentsUntilOf(location: Pick<Location, "timeZone" | "automotive">, now: Date): string | null {
  return planPreviewReads(location, now).find((read) => read.resource === "appointments")?.windowEnd ?? null;
}

/** What a preview run read: a session sending from it knew the source as that run did. */
export function sourceStateOfRun(run: {
  sourceFingerprint: string | null;
  mappingBasis: string | null;
  appointmentsUntil: string | null;
}): SourceState | null {
  if (!run.sourceFingerprint || !run.mappingBasis) return null;
  return { fingerprint: run.sourceFingerprint, mappingBasis: run.mappingBasis, appointmentsUntil: run.appointmentsUntil };
}

export interface QuietBase {
  sessionId: string;
  state: SourceState;
}

/**
 * The session a quiet one builds on: the location's latest finished session, if it succeeded and knew the source.
 * After it the upstream holds every record that source gave (a failed or cancelled one may have sent part, a resume
 * knew the source only in part: neither is a base).
 */
export async function latestQuietBase(db: DatabaseOrTransaction, session: typeof syncSessions.$inferSelect): Promise<QuietBase | null> {
  const [latest] = await queryRows<{ id: string; status: string; source_state: SourceState | null }>(
    db,
    sql`select id, status, source_state from sync_sessions
        where location_id = ${session.locationId} and id <> ${session.id} and status in ('succeeded', 'failed', 'cancelled')
        order by created_at desc, id desc limit 1`,
  );
  return latest?.status === "succeeded" && latest.source_state ? { sessionId: latest.id, state: latest.source_state } : null;
}

/**
 * The session sends records otherwise than the source gives them to a full sync (a catalogue step left out while the
 * upstream lacks some of it): it is no base for a quiet session, whose records would then never be sent whole.
 */
export async function forgetSourceState(fence: SessionFence): Promise<void> {
  await fence.write((tx) => tx.execute(sql`update sync_sessions set source_state = null where id = ${fence.sessionId}`));
}
