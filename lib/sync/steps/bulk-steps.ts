import type { AppointmentRecord, ContactDetailRecord, OpeningRecord, VehicleRecord } from "@/lib/upstream/records";
import type { UploadOutcome } from "@/lib/upstream/client";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { checkedPreviewEpoch, streamSelectedRecords } from "../preview-record-stream";
import { recordAccepted } from "@/lib/sync/synced-records/record-accepted";
import { appointmentHorizonEnd, localToday, openingsDateRange } from "../plan/local-dates";
import { planAppointments } from "../plan/plan-appointments";
import { planChunks } from "../plan/plan-chunks";
import { anythingAccepted } from "@/lib/sync/synced-records/lookups";
import { hasGoneContacts, streamUnsubscribeRecords, UNSUBSCRIBE_ITEM_KEY } from "../plan/gone-contacts";
import { recordUnsubscribed } from "@/lib/sync/synced-records/removed-records";
import { planOpenings } from "../plan/plan-openings";
import { chunkSelection, dateRangeSelection, serviceSelection, type RecordSelection } from "../plan/record-selection";
import type { SentItem, StepContext, SyncStep } from "./sync-step";
import type { RecheckedItem } from "../plan/catalogue-recheck";

function sent(context: StepContext, selection: RecordSelection, outcome: UploadOutcome, rechecked: RecheckedItem | null = null): SentItem {
  return {
    records: outcome.records,
    bytes: outcome.bytes,
    leftOut: rechecked?.leftOut.size ?? 0,
    onAccepted: (tx) => phaseClock.time("record", () => recordAccepted(tx, { locationId: context.location.id, selection, rechecked })),
  };
}

function requireKey(key: string | null): string {
  if (key === null) throw new Error("a bulk step runs per item");
  return key;
}

/** Create-or-update: first sync or full resync sends every valid record, later syncs the new and changed ones. */
async function planChangedChunks(context: StepContext, recordType: "contact_details" | "vehicles"): Promise<string[]> {
  const everything = context.full || !(await anythingAccepted(context.db, context.location.id, recordType));
  return planChunks(context.db, {
    locationId: context.location.id,
    recordType,
    onlyChanged: !everything,
    chunkSize: context.config.contactChunkSize,
    unsyncedOnly: context.unsyncedOnly,
  });
}

export const contactDetailsStep: SyncStep = {
  name: "contact_details",
  recordType: "contact_details",
  async planItems(context) {
    const chunks = await planChangedChunks(context, "contact_details");
    return (await hasGoneContacts(context.db, context.location.id, context.unsyncedOnly)) ? [...chunks, UNSUBSCRIBE_ITEM_KEY] : chunks;
  },
  async send(context, key) {
    if (key === UNSUBSCRIBE_ITEM_KEY) {
      const records = streamUnsubscribeRecords(context.db, context.location.id, context.unsyncedOnly, await checkedPreviewEpoch(context));
      const outcome = await context.client.importContactDetails({ ...context.call, records });
      return {
        records: outcome.records,
        bytes: outcome.bytes,
        onAccepted: (tx) => phaseClock.time("record", () => recordUnsubscribed(tx, context.location.id, context.unsyncedOnly, context.previewEpoch!)),
      };
    }
    const selection = chunkSelection("contact_details", requireKey(key), context.unsyncedOnly);
    const records = streamSelectedRecords<ContactDetailRecord>(context.db, context.location.id, selection, await checkedPreviewEpoch(context));
    return sent(context, selection, await context.client.importContactDetails({ ...context.call, records }));
  },
};

export const vehiclesStep: SyncStep = {
  name: "vehicles",
  recordType: "vehicles",
  planItems: (context) => planChangedChunks(context, "vehicles"),
  async send(context, key) {
    const selection = chunkSelection("vehicles", requireKey(key), context.unsyncedOnly);
    const records = streamSelectedRecords<VehicleRecord>(context.db, context.location.id, selection, await checkedPreviewEpoch(context));
    return sent(context, selection, await context.client.importVehicles({ ...context.call, records }));
  },
};

/**
 * The session's appointment plan, per touched day, counted what it takes away (AppointmentPlan.removedByDay): the
 * removal valve, which plans the items before anything is sent, reads it instead of counting again. Only for a plan
 * made by this session's claim (a takeover or a resume loads its items).
 */
export const plannedAppointmentRemovals = new WeakMap<StepContext, ReadonlyMap<string, number>>();

export const appointmentsStep: SyncStep = {
  name: "appointments",
  recordType: "appointments",
  async planItems(context) {
    const { timeZone } = context.location;
    const plan = await planAppointments(context.db, {
      locationId: context.location.id,
      full: context.full,
      unsyncedOnly: context.unsyncedOnly,
      today: localToday(context.now, timeZone),
      horizonEnd: appointmentHorizonEnd(context.now, timeZone),
    });
    if (plan.removedByDay) plannedAppointmentRemovals.set(context, plan.removedByDay);
    return plan.keys;
  },
  async send(context, key) {
    const selection = dateRangeSelection(requireKey(key));
    if (selection.kind !== "dates") throw new Error("appointments are sent by date range");
    const rechecked = context.catalogueRecheck?.item() ?? null;
    const epoch = await checkedPreviewEpoch(context);
    const records = streamSelectedRecords<AppointmentRecord>(context.db, context.location.id, selection, epoch, rechecked);
    const outcome = await context.client.importAppointments({ ...context.call, startDate: selection.startDate, endDate: selection.endDate, records });
    return sent(context, selection, outcome, rechecked);
  },
};

export const openingsStep: SyncStep = {
  name: "openings",
  recordType: "openings",
  planItems: (context) => planOpenings(context.db, { locationId: context.location.id, full: context.full }),
  // One import per service, each replacing only that service's openings: they need no order.
  concurrency: (config) => config.openingsConcurrency,
  async send(context, key) {
    const selection = serviceSelection(requireKey(key));
    const rechecked = context.catalogueRecheck?.item() ?? null;
    const records = streamSelectedRecords<OpeningRecord>(context.db, context.location.id, selection, await checkedPreviewEpoch(context), rechecked);
    const range = openingsDateRange(context.now, context.location.timeZone);
    const outcome = await context.client.importOpenings({ ...context.call, ...range, serviceExternalId: selection.serviceExternalId, records });
    return sent(context, selection, outcome, rechecked);
  },
};
