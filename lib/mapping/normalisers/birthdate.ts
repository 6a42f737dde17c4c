import { formatLocalDate, isLocalDate, localDatePattern } from "@/lib/upstream/formats";
import { warningIssue } from "../issues";
import { maskBirthdate } from "../mask";
import { normalised, type Normalised } from "./normalised";

const earliestBirthdate = "1900-01-01";

function dropped(value: string, reason: string): Normalised<string> {
  return normalised<string>(undefined, warningIssue("birthdate", "invalid_birthdate", reason, maskBirthdate(value)));
}

/** A real calendar date `YYYY-MM-DD`, from 1900-01-01 to today at the location; otherwise dropped with a warning. */
export function normaliseBirthdate(value: string | null | undefined, today: { now: Date; timeZone: string }): Normalised<string> {
  if (typeof value !== "string") return normalised<string>(undefined);
  const date = value.trim();
  if (date === "") return normalised<string>(undefined);
  if (!localDatePattern.test(date)) return dropped(value, "is not a date YYYY-MM-DD");
  if (!isLocalDate(date)) return dropped(value, "is not a real calendar date");
  // Four-digit years, so comparing the text compares the dates.
  if (date < earliestBirthdate) return dropped(value, "is before 1900");
  if (date > formatLocalDate(today.now, today.timeZone)) return dropped(value, "is in the future");
  return normalised(date);
}
