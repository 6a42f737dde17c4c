import { sql } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import type { SourceState, syncSessions } from "@/db/schema";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { appointmentHorizonEnd } from "../plan/local-dates";
import { rangeKey } from "../plan/date-ranges";
import type { SessionFence } from "../session-fence";
import type { SyncStepName } from "../step-names";
import type { StepContext, SyncStep } from "../steps/sync-step";
import type { SessionRecords, SkippedCounts } from "../stream/session-records";
import { streamedStepsByName } from "../stream/stream-steps";
import { heldContactKeys } from "@/lib/sync/synced-records/lookups";
import { latestQuietBase, type QuietBase } from "./source-state";

// A quiet session: nothing in the source changed since the location's last session succeeded (same fingerprint, same
// mapping basis), so the upstream already holds every record the source gives. Only what time moves is read and sent:
// the days the appointment window gained since, and the next 72 hours of openings. No preview run, no scan.

type Session = typeof syncSessions.$inferSelect;
type Location = { id: string; sourceKey: string | null; timeZone: string; country: string; automotive: boolean };

/**
 * Whether this session is quiet, decided once before anything is sent (a takeover keeps the decision). Never for a
 * full resync, a resume, or a session that already sends from a preview. Returns the base it builds on, or null.
 */
export async function decideQuiet(
  db: Database,
  fence: SessionFence,
  input: { session: Session; location: Location; observe: () => Promise<SourceState> },
): Promise<QuietBase | null> {
  const { session, location } = input;
  if (session.quiet) return latestQuietBase(db, session);
  if (session.full || session.resumesSessionId || session.previewRunId || session.streamed || !location.sourceKey) return null;
  const base = await latestQuietBase(db, session);
  if (!base) return null;
  const state = await input.observe();
  if (state.fingerprint !== base.state.fingerprint || state.mappingBasis !== base.state.mappingBasis) return null;
  await fence.write((tx) =>
    tx.execute(
      sql`update sync_sessions set quiet = true, streamed = true, source_state = ${JSON.stringify(state)}::jsonb where id = ${fence.sessionId}`,
    ),
  );
  return base;
}

/** Records this session leaves out without reading them: the same as its base left out (the source is the same). */
export async function carriedSkippedCounts(db: DatabaseOrTransaction, base: QuietBase): Promise<Partial<Record<PreviewRecordType, SkippedCounts>>> {
  const rows = await queryRows<{ name: PreviewRecordType; invalid: number; excluded: number }>(
    db,
    sql`select name, records_invalid as invalid, records_excluded as excluded from sync_steps
        where session_id = ${base.sessionId} and name in ('contact_details', 'vehicles', 'appointments')`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, { invalid: row.invalid, excluded: row.excluded }]));
}

function recordsOf(context: StepContext): SessionRecords {
  if (!context.stream) throw new Error("a quiet session reads from the source");
  return context.stream;
}

const nothingChanged = (name: "contact_details" | "vehicles"): SyncStep => ({
  name,
  recordType: name,
  planItems: async () => [],
  send: async () => {
    throw new Error(`a quiet session sends no ${name}`);
  },
});

/** The days the appointment window gained since the base read it (one range), if the source has any appointment there. */
function gainedDaysStep(base: SourceState): SyncStep {
  const streamed = streamedStepsByName.appointments;
  return {
    ...streamed,
    async planItems(context) {
      if (!base.appointmentsUntil) return [];
      const range = { startDate: base.appointmentsUntil.slice(0, 10), endDate: appointmentHorizonEnd(context.now, context.location.timeZone) };
      if (range.startDate > range.endDate || !(await recordsOf(context).count("appointments", range))) return [];
      return [rangeKey(range)];
    },
    async prepare(context, pendingKeys) {
      // What the gained days' appointments name: the upstream holds every usable contact (nothing changed).
      if (pendingKeys.length) recordsOf(context).useHeld("contact_details", await heldContactKeys(context.db, context.location.id));
    },
  };
}

/** The steps of a quiet session: the catalogue (when asked for) and openings as a streamed session reads them. */
export function quietStepsOf(base: QuietBase): Record<SyncStepName, SyncStep> {
  return {
    ...streamedStepsByName,
    contact_details: nothingChanged("contact_details"),
    vehicles: nothingChanged("vehicles"),
    appointments: gainedDaysStep(base.state),
  };
}
