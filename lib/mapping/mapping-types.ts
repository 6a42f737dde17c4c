import type { DateTimeStyle } from "@/lib/upstream/formats";
import type {
  AppointmentRecord,
  CalendarRecord,
  ContactDetailRecord,
  OpeningRecord,
  ServiceCategoryRecord,
  ServiceRecord,
  VehicleRecord,
} from "@/lib/upstream/records";

export type IssueSeverity = "error" | "warning";

/**
 * One problem with one source row. error: the record is excluded and never sent.
 * warning: only the field was dropped or normalised; the record is sent.
 */
export interface MappingIssue {
  severity: IssueSeverity;
  /** The upstream field (e.g. "mobile_phone_number"), or the source column when no field applies. */
  field: string;
  /** Stable code to group by, e.g. "invalid_phone". */
  code: string;
  /** Plain words, e.g. "is not a valid phone number for DE". */
  reason: string;
  /** The value as it came from the source; personal data masked (e.g. "+49 *** *** 89"). */
  original: string | null;
}

export interface MappingContext {
  /** IANA zone of the location: local wall times are read in it, date-times are written with its offset. */
  timeZone: string;
  /** ISO 3166-1 alpha-2, the default region of phone numbers. */
  country: string;
  dateTimeStyle: DateTimeStyle;
  /** "Today" for rules such as "a birthdate is not in the future". */
  now: Date;
}

export interface MappedRow<R> {
  /** The source row's id (or a synthetic key for rows without one, e.g. availability). */
  sourceId: string;
  /** The upstream record; present unless an error excluded it (or a rule did). */
  record: R | null;
  issues: MappingIssue[];
  /** Set when a business rule leaves the row out (e.g. "canceled", "no-show"): not an error. */
  excludedByRule: string | null;
}

/** An appointment row also names its local start date, the unit of appointment date ranges (set even when excluded). */
export interface MappedAppointmentRow<R> extends MappedRow<R> {
  localDate: string | null;
}

/** An availability row also names its service: the openings request carries it, not the record (spec 2.8). */
export interface MappedOpeningRow<R> extends MappedRow<R> {
  serviceExternalId: string | null;
  /** The start as an instant (ms), null when it is unreadable: which openings are within the 72 hours is decided by it. */
  startInstant: number | null;
}

/** The upstream record of each upstream record type, as the mapping emits it. */
export interface UpstreamRecordOf {
  calendars: CalendarRecord;
  service_categories: ServiceCategoryRecord;
  services: ServiceRecord;
  contact_details: ContactDetailRecord;
  vehicles: VehicleRecord;
  appointments: AppointmentRecord;
  openings: OpeningRecord;
}
