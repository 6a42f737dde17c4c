import type { UpstreamRecordType } from "@/lib/upstream/records";
import type { UpstreamRecordOf } from "./mapping-types";

/** A record's pointer to another record of the same location, by external id. */
export interface RecordReference {
  field: string;
  targetType: UpstreamRecordType;
  targetExternalId: string;
}

function referenceOf(field: string, targetType: UpstreamRecordType, targetExternalId: string | undefined): RecordReference[] {
  return targetExternalId === undefined ? [] : [{ field, targetType, targetExternalId }];
}

type ReferenceReaders = { [T in UpstreamRecordType]: (record: UpstreamRecordOf[T], serviceExternalId: string | null) => RecordReference[] };

const referenceReaders: ReferenceReaders = {
  calendars: () => [],
  service_categories: () => [],
  contact_details: () => [],
  services: (record) => [
    ...referenceOf("service_category_external_id", "service_categories", record.service_category_external_id),
    ...(record.calendar_external_ids ?? []).flatMap((id) => referenceOf("calendar_external_ids", "calendars", id)),
  ],
  vehicles: (record) => referenceOf("contact_detail_external_id", "contact_details", record.contact_detail_external_id),
  appointments: (record) => [
    ...referenceOf("contact_detail_external_id", "contact_details", record.contact_detail_external_id),
    ...referenceOf("service_external_id", "services", record.service_external_id),
    ...referenceOf("calendar_external_id", "calendars", record.calendar_external_id),
  ],
  openings: (record, serviceExternalId) => [
    ...referenceOf("calendar_external_id", "calendars", record.calendar_external_id),
    ...referenceOf("service_external_id", "services", serviceExternalId ?? undefined),
  ],
};

/**
 * The records a record points to (the preview checks in SQL that they exist). An opening's service is named by its
 * request, not the record: pass the mapped row's serviceExternalId.
 */
export function referencesOf<T extends UpstreamRecordType>(
  type: T,
  record: UpstreamRecordOf[T],
  serviceExternalId: string | null = null,
): RecordReference[] {
  const read: ReferenceReaders[T] = referenceReaders[type];
  return read(record, serviceExternalId);
}
