import type { AppointmentStatus } from "@/lib/source/source-rows";
import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

// Keys are lower-case with spaces, dashes and underscores removed: "NO_SHOW", "no show" and "noshow" meet.
const statusBySpelling: ReadonlyMap<string, AppointmentStatus> = new Map([
  ["booked", "booked"],
  ["completed", "completed"],
  ["canceled", "canceled"],
  ["cancelled", "canceled"],
  ["noshow", "no-show"],
]);

/** The status word, case and spelling aside. Missing → booked; an unknown word → booked with a warning. */
export function normaliseAppointmentStatus(value: string | null | undefined): Normalised<AppointmentStatus> {
  if (typeof value !== "string") return normalised<AppointmentStatus>("booked");
  // Most rows hold a key as it is ("completed"), which cleaning leaves as it is: looked up first.
  const written = statusBySpelling.get(value);
  if (written !== undefined) return normalised(written);
  const spelling = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/gu, "");
  if (spelling === "") return normalised<AppointmentStatus>("booked");
  const status = statusBySpelling.get(spelling);
  if (status !== undefined) return normalised(status);
  return normalised<AppointmentStatus>(
    "booked",
    warningIssue("status", "unknown_status", "is not a known status; treated as booked", shownOriginal(value)),
  );
}
