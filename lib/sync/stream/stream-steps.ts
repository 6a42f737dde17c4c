import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { PreviewRecordRow } from "@/lib/preview/preview-row";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { UploadOutcome } from "@/lib/upstream/client";
import { EncodedRecord, RecordBatch } from "@/lib/upstream/upload";
import { chooseAppointmentRanges } from "../plan/choose-appointment-ranges";
import { parseRangeKey, rangeKey } from "../plan/date-ranges";
import { appointmentHorizonEnd, localToday, openingsDateRange } from "../plan/local-dates";
import { dateRangeSelection, serviceSelection, type RecordSelection } from "../plan/record-selection";
import { recordSentRecords, SentRecords } from "@/lib/sync/synced-records/record-accepted";
import type { SyncStepName } from "../step-names";
import { closeStep, openStep } from "../steps/management-system-steps";
import type { SentItem, StepContext, SyncStep } from "../steps/sync-step";
import { guardedRead } from "./source-failure";
import { acceptedHashes, acceptedOpenings, anythingAccepted, heldServices } from "@/lib/sync/synced-records/lookups";
import { openingsItems } from "../plan/openings-to-send";
import { isSendable } from "@/lib/pipeline/record-status";
import { noteStreamedKeys } from "../unsynced-keys";

const labelOf = (type: PreviewRecordType) => type.replace("_", " ");

// A streamed session's steps: each reads its records from the source as it sends them (lib/sync/stream/session-records.ts),
// checked by the same code as the preview, and records what the upstream accepted from what it sent.

type Payload = Record<string, unknown>;
type UploadItem = Payload | EncodedRecord;
const stage = (sent: SentRecords, record: PreviewRecordRow) => sent.add(record.record_key!, record.content_hash!, record.local_date);

/** What a list of records will be recorded as once the upstream accepted them. */
function sentRecordsOf(context: StepContext, type: PreviewRecordType, records: readonly PreviewRecordRow[]): SentRecords {
  const sent = new SentRecords(context.location.id, type);
  for (const record of records) stage(sent, record);
  return sent;
}

/** What an upload carries of a record: the JSON its hash was made of, unless the checks changed the payload since. */
const uploadItemOf = (record: PreviewRecordRow): UploadItem => (record.payload_json ? new EncodedRecord(record.payload_json) : record.payload!);

function streamOf(context: StepContext) {
  if (!context.stream) throw new Error("a streamed step runs in a streamed session");
  return context.stream;
}

function requireKey(key: string | null): string {
  if (key === null) throw new Error("a bulk step runs per item");
  return key;
}

/** What an accepted upload recorded: the records it carried, replacing what `replaced` names upstream (null: nothing). */
function accepted(
  context: StepContext,
  outcome: Pick<UploadOutcome, "records" | "bytes">,
  input: { replaced: RecordSelection | null; records: SentRecords; mayBeRecorded: boolean },
): SentItem {
  return {
    records: outcome.records,
    bytes: outcome.bytes,
    onAccepted: async (tx) => {
      const { forgotten } = await phaseClock.time("record", () => recordSentRecords(tx, input));
      await noteStreamedKeys(tx, context.location.id, input.records.type, [...input.records.keys, ...forgotten]);
    },
  };
}

/** Every sendable record of a small type, read whole. */
async function readSendable(context: StepContext, type: PreviewRecordType, scope: string): Promise<PreviewRecordRow[]> {
  const sendable: PreviewRecordRow[] = [];
  for await (const batch of guardedRead(streamOf(context).read(type, scope), labelOf(type)))
    for (const record of batch) if (isSendable(record)) sendable.push(record);
  return sendable;
}

/** Full replacement: the whole valid set in one request; what is left out is removed upstream. */
function catalogueStep(name: SyncStepName & PreviewRecordType, post: (context: StepContext, records: Payload[]) => Promise<unknown>): SyncStep {
  return {
    name,
    recordType: name,
    async send(context) {
      const records = await readSendable(context, name, name);
      const payloads = records.map((record) => record.payload!);
      await post(context, payloads);
      const bytes = Buffer.byteLength(phaseClock.time("encode", () => JSON.stringify({ data: payloads })));
      return accepted(
        context,
        { records: records.length, bytes },
        { replaced: { kind: "all", recordType: name }, records: sentRecordsOf(context, name, records), mayBeRecorded: false },
      );
    },
  };
}

/** A part as it waits for its upload: what is sent and what is recorded then, not the records it came from. */
interface Part {
  items: UploadItem[];
  sent: SentRecords;
}

/**
 * Contacts (and vehicles) in parts of SYNC_CONTACT_CHUNK_SIZE, dealt from one read of the source: each pending part
 * takes the next records, the last one all that are left (so a source that grew loses nothing). Once anything of the
 * type was accepted (a retried step, a resume), records accepted with the same content are left out.
 */
interface PartDealer {
  take(key: string): Promise<Part>;
  /** This deal leaves out records accepted with the same content (something of the type was accepted before it began). */
  readonly leavesOutAccepted: boolean;
  /** Ends the read (its source connection goes back to the pool): a retried step deals from a new one. */
  close(): Promise<void>;
}

function dealParts(
  context: StepContext,
  type: "contact_details" | "vehicles",
  pendingKeys: readonly string[],
  leaveOutAccepted: boolean,
): PartDealer {
  const size = context.config.contactChunkSize;
  const records = (async function* () {
    for await (const batch of guardedRead(streamOf(context).read(type, type), labelOf(type))) {
      const sendable = batch.filter(isSendable);
      if (!leaveOutAccepted) {
        yield* sendable;
        continue;
      }
      const hashes = await acceptedHashes(
        context.db,
        context.location.id,
        type,
        sendable.map((record) => record.record_key!),
      );
      for (const record of sendable) if (hashes.get(record.record_key!) !== record.content_hash) yield record;
    }
  })();
  const fill = async (last: boolean) => {
    const part: Part = { items: [], sent: new SentRecords(context.location.id, type) };
    while (last || part.items.length < size) {
      const next = await records.next();
      if (next.done) break;
      part.items.push(uploadItemOf(next.value));
      stage(part.sent, next.value);
    }
    return part;
  };
  let position = 0;
  // The next part is read (and mapped) while the one before is uploaded.
  let next: Promise<Part> | null = null;
  return {
    leavesOutAccepted: leaveOutAccepted,
    async take(key) {
      const index = pendingKeys.indexOf(key, position);
      if (index !== position) throw new Error(`part ${key} taken out of order`);
      position += 1;
      const part = await (next ?? fill(position === pendingKeys.length));
      next = position < pendingKeys.length ? fill(position + 1 === pendingKeys.length) : null;
      next?.catch(() => {});
      return part;
    },
    async close() {
      await next?.catch(() => {});
      await records.return(undefined);
    },
  };
}

const dealers = new WeakMap<StepContext, Map<string, PartDealer>>();

/** Ends the session's open reads (a step that failed for good leaves its read open, or a read started ahead). */
export async function closeStreamedReads(context: StepContext): Promise<void> {
  for (const dealer of dealers.get(context)?.values() ?? []) await dealer.close().catch(() => {});
  dealers.delete(context);
  await context.stream?.close();
}

function partsStep(name: "contact_details" | "vehicles", post: (context: StepContext, records: UploadItem[]) => Promise<UploadOutcome>): SyncStep {
  return {
    name,
    recordType: name,
    async planItems(context) {
      const rows = await streamOf(context).count(name);
      return Array.from({ length: Math.max(1, Math.ceil(rows / context.config.contactChunkSize)) }, (_, index) => `part ${index + 1}`);
    },
    async prepare(context, pendingKeys) {
      const anyAccepted = await anythingAccepted(context.db, context.location.id, name);
      const byStep = dealers.get(context) ?? new Map<string, PartDealer>();
      dealers.set(context, byStep);
      await byStep.get(name)?.close();
      byStep.set(name, dealParts(context, name, pendingKeys, anyAccepted && !context.resend));
    },
    async send(context, key) {
      const dealer = dealers.get(context)?.get(name);
      if (!dealer) throw new Error(`${name}: no read open`);
      const part = await dealer.take(requireKey(key));
      // Nothing left for this part: no request (an empty create-or-update changes nothing).
      if (!part.items.length) return { records: 0, bytes: 0 };
      const outcome = await post(context, part.items);
      // A deal that leaves out what was accepted may send again a record changed since: it may be recorded already.
      const mayBeRecorded = !context.firstSync || dealer.leavesOutAccepted;
      return accepted(context, outcome, { replaced: null, records: part.sent, mayBeRecorded });
    },
  };
}

const pendingMonths = new WeakMap<StepContext, readonly string[]>();

/** One import per calendar month, from the source's earliest appointment to today + 6 months (spec 4.4 item 4). */
const appointmentsStep: SyncStep = {
  name: "appointments",
  recordType: "appointments",
  async planItems(context) {
    const earliest = await streamOf(context).earliestAppointment();
    const plan = chooseAppointmentRanges({
      full: true,
      anySynced: false,
      anySyncedWithoutDate: false,
      earliestDate: earliest,
      touchedDates: [],
      today: localToday(context.now, context.location.timeZone),
      horizonEnd: appointmentHorizonEnd(context.now, context.location.timeZone),
    });
    return plan.ranges.map(rangeKey);
  },
  async prepare(context, pendingKeys) {
    // A retried step reads its months afresh.
    await streamOf(context).close();
    pendingMonths.set(context, pendingKeys);
  },
  async send(context, key) {
    const window = parseRangeKey(requireKey(key));
    const pending = pendingMonths.get(context) ?? [];
    const position = pending.indexOf(key!);
    const next = position >= 0 ? pending[position + 1] : undefined;
    let sent = new SentRecords(context.location.id, "appointments");
    // A function: an upload retried with a fresh address reads the month again.
    const records = async function* () {
      sent = new SentRecords(context.location.id, "appointments");
      for await (const batch of guardedRead(streamOf(context).read("appointments", key!, window), "appointments")) {
        const items: UploadItem[] = [];
        for (const record of batch) {
          if (!isSendable(record)) continue;
          stage(sent, record);
          items.push(uploadItemOf(record));
        }
        yield new RecordBatch(items) as never;
      }
      // The next month's source query runs while this month's upload ends and the next one starts (~40 ms a month at a
      // million appointments); started once this month is read, its transaction is not left open through an upload.
      if (next) streamOf(context).readAhead("appointments", parseRangeKey(next));
    };
    const outcome = await context.client.importAppointments({ ...context.call, ...window, records });
    // A first sync sends each key once (the session's claims): none is recorded under another month yet.
    return accepted(context, outcome, { replaced: dateRangeSelection(key!), records: sent, mayBeRecorded: !context.firstSync });
  },
};

/** The session's openings, read once (72 hours: small), by service. */
const openingsByService = new WeakMap<StepContext, Promise<Map<string, PreviewRecordRow[]>>>();

function openingsOf(context: StepContext): Promise<Map<string, PreviewRecordRow[]>> {
  let pending = openingsByService.get(context);
  if (!pending) {
    pending = readSendable(context, "openings", "openings").then((records) => {
      const byService = new Map<string, PreviewRecordRow[]>();
      for (const record of records) {
        if (!record.ref_service) continue;
        const ofService = byService.get(record.ref_service);
        if (ofService) ofService.push(record);
        else byService.set(record.ref_service, [record]);
      }
      return byService;
    });
    openingsByService.set(context, pending);
    pending.catch(() => openingsByService.delete(context));
  }
  return pending;
}

/** One import per service whose openings differ from what the upstream holds (lib/sync/plan/openings-to-send.ts). */
const openingsStep: SyncStep = {
  name: "openings",
  recordType: "openings",
  async planItems(context) {
    const byService = await openingsOf(context);
    const current = [...byService.values()]
      .flat()
      .map((record) => ({ service: record.ref_service!, key: record.record_key!, hash: record.content_hash! }));
    return openingsItems({
      current,
      accepted: await acceptedOpenings(context.db, context.location.id),
      heldServices: await heldServices(context.db, context.location.id),
      full: context.full || context.resend,
    });
  },
  concurrency: (config) => config.openingsConcurrency,
  async send(context, key) {
    const selection = serviceSelection(requireKey(key));
    const records = (await openingsOf(context)).get(selection.serviceExternalId) ?? [];
    const range = openingsDateRange(context.now, context.location.timeZone);
    const outcome = await context.client.importOpenings({
      ...context.call,
      ...range,
      serviceExternalId: selection.serviceExternalId,
      records: records.map(uploadItemOf) as never,
    });
    return accepted(context, outcome, { replaced: selection, records: sentRecordsOf(context, "openings", records), mayBeRecorded: false });
  },
};

/** The steps of a streamed session, in protocol order. */
export const streamedStepsByName: Record<SyncStepName, SyncStep> = {
  open: openStep,
  calendars: catalogueStep("calendars", (context, records) => context.client.syncCalendars({ ...context.call, records: records as never })),
  service_categories: catalogueStep("service_categories", (context, records) =>
    context.client.syncServiceCategories({ ...context.call, records: records as never }),
  ),
  services: catalogueStep("services", (context, records) => context.client.syncServices({ ...context.call, records: records as never })),
  contact_details: partsStep("contact_details", (context, records) =>
    context.client.importContactDetails({ ...context.call, records: records as never }),
  ),
  vehicles: partsStep("vehicles", (context, records) => context.client.importVehicles({ ...context.call, records: records as never })),
  appointments: appointmentsStep,
  openings: openingsStep,
  close: closeStep,
};
