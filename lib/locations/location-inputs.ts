import { getCountries } from "libphonenumber-js/min";
import { IANAZone } from "luxon";
import { z } from "zod";
import { EnvironmentName } from "@/lib/environments/environment-inputs";
import { Email } from "@/lib/users/user-inputs";
import { safeText } from "@/lib/validation/safe-text";

// One schema per shape, used by the forms in the browser and by the route handlers and CLI.
// `abort: true` on a field's first check: an empty or malformed value gets one message, not several.

/** Spec section 8: the recommended sync window, local time of the business. */
export const SYNC_WINDOW = { start: "09:00", end: "19:00" } as const;

const countryCodes = new Set<string>(getCountries());

export const TimeZone = safeText()
  .trim()
  .min(1, { error: "Choose the location's time zone", abort: true })
  .refine((zone) => IANAZone.isValidZone(zone), "Must be an IANA time zone such as Europe/Berlin or America/New_York")
  .transform(zoneSpelling);

/** A zone's own spelling where the input differs from it only in case ("europe/berlin" → "Europe/Berlin"); else as given. */
function zoneSpelling(zone: string): string {
  const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

export const CountryCode = safeText()
  .trim()
  .transform((code) => code.toUpperCase())
  .refine((code) => countryCodes.has(code), "Must be a two-letter country code such as US, DE or GB");

/** HH:MM, local time, within the spec's recommended window (start inclusive, end exclusive). */
export const SyncTime = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "Must be a time written HH:MM, e.g. 10:30", abort: true })
  .refine(
    (time) => time >= SYNC_WINDOW.start && time < SYNC_WINDOW.end,
    `Must be between ${SYNC_WINDOW.start} and 18:59: the upstream recommends syncing between 9am and 7pm local time`,
  );

/** The upstream's location_id: it goes into URL paths (encoded), so no control characters. */
export const UpstreamLocationId = safeText()
  .trim()
  .min(1, { error: "Enter the upstream location ID", abort: true })
  .max(200, "Must be at most 200 characters")
  .regex(/^[^\s/?#\\]+$/, "Must not contain spaces, slashes, ? or #");

export const SourceKey = safeText()
  .trim()
  .min(1, "Enter the source key of the management system's location")
  .max(200, "Must be at most 200 characters");

export const LocationName = safeText().trim().min(1, "Enter a name").max(120, "Must be at most 120 characters");

const locationFields = {
  name: LocationName,
  timeZone: TimeZone,
  country: CountryCode,
  environment: z.enum(EnvironmentName.options, "Choose staging or production"),
  upstreamLocationId: UpstreamLocationId,
  sourceKey: SourceKey,
  automotive: z.boolean(),
  syncTime: SyncTime,
};

export const LocationInput = z.object({
  ...locationFields,
  automotive: locationFields.automotive.default(false),
  syncTime: locationFields.syncTime.default("10:00"),
});
export type LocationInput = z.infer<typeof LocationInput>;
export type LocationFormValues = z.input<typeof LocationInput>;

// Built from the fields without defaults: a partial update must not reset what it leaves out.
export const LocationUpdateInput = z
  .object(locationFields)
  .partial()
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: "Change at least one field",
  });
export type LocationUpdateInput = z.infer<typeof LocationUpdateInput>;

export const LocationId = z.object({ locationId: z.uuid("must be a location id") });

export const connectionStatuses = ["connected", "not_connected", "needs_attention"] as const;
export const ConnectionStatusFilter = z.enum(connectionStatuses);
export type ConnectionStatusFilter = z.infer<typeof ConnectionStatusFilter>;
/** The list's status filter: a connection status (of the locations in use), or the archived ones. */
export const LocationStatusFilter = z.enum([...connectionStatuses, "archived"]);
export type LocationStatusFilter = z.infer<typeof LocationStatusFilter>;

export const LOCATIONS_PAGE_SIZE = 50;

/** List query: search, filters and a keyset cursor (after/before an opaque key). */
export const LocationListQuery = z.object({
  q: safeText().trim().max(200).optional(),
  status: LocationStatusFilter.optional(),
  environment: EnvironmentName.optional(),
  after: safeText().max(500).optional(),
  before: safeText().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(LOCATIONS_PAGE_SIZE),
});
export type LocationListQuery = z.infer<typeof LocationListQuery>;

/** The upstream account's credentials, typed by the owner: used once in the request, never stored. */
export const ConnectLocationInput = z.object({
  email: safeText().trim().min(1, "Enter the email of the upstream account").max(254, "Must be at most 254 characters"),
  password: z.string().min(1, "Enter the password of the upstream account").max(1024, "Must be at most 1024 characters"),
});
export type ConnectLocationInput = z.infer<typeof ConnectLocationInput>;

export const OwnerInvitationInput = z.object({
  email: Email,
  name: safeText().trim().max(120, "Must be at most 120 characters").default(""),
});
export type OwnerInvitationInput = z.infer<typeof OwnerInvitationInput>;

/** Deleting for good: the location's name, typed by the person as the confirmation. */
export const DeleteLocationInput = z.object({ confirmName: z.string().max(200, "Must be at most 200 characters") });
export type DeleteLocationInput = z.infer<typeof DeleteLocationInput>;

/** The guided reconnect: the environment it moves to, and its upstream location ID there when it differs. */
export const MoveLocationEnvironmentInput = z.object({
  environment: locationFields.environment,
  upstreamLocationId: UpstreamLocationId.optional(),
});
export type MoveLocationEnvironmentInput = z.infer<typeof MoveLocationEnvironmentInput>;
