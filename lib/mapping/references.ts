import type { UpstreamRecordType } from "@/lib/upstream/records";
import type { UpstreamRecordOf } from "./mapping-types";

/**
 * Where a record points, by external id: the records the preview checks exist (its `ref_*` columns). Null where it
 * points nowhere; `calendars` is a service's list and null for every other type.
 */
export interface RecordReferences {
  /** contact_detail_external_id: an appointment's customer, a vehicle's owner. */
  contact: string | null;
  /** service_external_id: an appointment's; an opening's is named by its request, not the record. */
  service: string | null;
  /** calendar_external_id: an appointment's or an opening's staff member. */
  calendar: string | null;
  /** service_category_external_id: a service's category. */
  category: string | null;
  /** calendar_external_ids: a service's staff. */
  calendars: string[] | null;
}

const noReferences: Readonly<RecordReferences> = Object.freeze({ contact: null, service: null, calendar: null, category: null, calendars: null });

type ReferenceReaders = { [T in UpstreamRecordType]: (record: UpstreamRecordOf[T], serviceExternalId: string | null) => Readonly<RecordReferences> };

// Read field by field, without a list of references per record: the preview and the sync read them for every record.
const referenceReaders: ReferenceReaders = {
  calendars: () => noReferences,
  service_categories: () => noReferences,
  contact_details: () => noReferences,
  services: (record) => ({
    ...noReferences,
    category: record.service_category_external_id ?? null,
    calendars: [...(record.calendar_external_ids ?? [])],
  }),
  vehicles: (record) => ({ ...noReferences, contact: record.contact_detail_external_id ?? null }),
  appointments: (record) => ({
    contact: record.contact_detail_external_id ?? null,
    service: record.service_external_id ?? null,
    calendar: record.calendar_external_id ?? null,
    category: null,
    calendars: null,
  }),
  openings: (record, serviceExternalId) => ({ ...noReferences, service: serviceExternalId, calendar: record.calendar_external_id ?? null }),
};

/** The records a record points to. An opening's service is named by its request: pass the mapped row's serviceExternalId. */
export function referencesOf<T extends UpstreamRecordType>(
  type: T,
  record: UpstreamRecordOf[T],
  serviceExternalId: string | null = null,
): Readonly<RecordReferences> {
  const read: ReferenceReaders[T] = referenceReaders[type];
  return read(record, serviceExternalId);
}
