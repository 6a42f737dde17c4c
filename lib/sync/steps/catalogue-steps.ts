import type { CalendarRecord, ServiceCategoryRecord, ServiceRecord } from "@/lib/upstream/records";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { checkedPreviewEpoch, readSelectedRecords } from "../preview-record-stream";
import { recordAccepted } from "@/lib/sync/synced-records/record-accepted";
import type { RecordSelection } from "../plan/record-selection";
import type { StepContext, SentItem, SyncStep } from "./sync-step";

/** Full replacement: the whole valid set in one request; what is left out is removed upstream. */
async function sendAll<T>(context: StepContext, recordType: PreviewRecordType, post: (records: T[]) => Promise<unknown>): Promise<SentItem> {
  const selection: RecordSelection = { kind: "all", recordType };
  // Services name calendars and categories: checked again when a step of those is left out.
  const rechecked = recordType === "services" ? (context.catalogueRecheck?.item() ?? null) : null;
  const records = await readSelectedRecords<T>(context.db, context.location.id, selection, await checkedPreviewEpoch(context), rechecked);
  await post(records);
  return {
    records: records.length,
    leftOut: rechecked?.leftOut.size ?? 0,
    bytes: Buffer.byteLength(phaseClock.time("encode", () => JSON.stringify({ data: records }))),
    onAccepted: (tx) => phaseClock.time("record", () => recordAccepted(tx, { locationId: context.location.id, selection, rechecked })),
  };
}

export const calendarsStep: SyncStep = {
  name: "calendars",
  recordType: "calendars",
  send: (context) => sendAll<CalendarRecord>(context, "calendars", (records) => context.client.syncCalendars({ ...context.call, records })),
};

export const serviceCategoriesStep: SyncStep = {
  name: "service_categories",
  recordType: "service_categories",
  send: (context) =>
    sendAll<ServiceCategoryRecord>(context, "service_categories", (records) => context.client.syncServiceCategories({ ...context.call, records })),
};

export const servicesStep: SyncStep = {
  name: "services",
  recordType: "services",
  send: (context) => sendAll<ServiceRecord>(context, "services", (records) => context.client.syncServices({ ...context.call, records })),
};
