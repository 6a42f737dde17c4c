import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

// Common spellings (English and German front desks) of the three values we send. Keys are lower-case with
// spaces, dots, dashes, underscores and slashes removed, so "Non-Binary", "non binary" and "N/B" meet.
const genderBySpelling: ReadonlyMap<string, string> = new Map([
  ...["f", "female", "woman", "w", "weiblich", "frau", "mrs", "ms"].map((spelling) => [spelling, "female"] as const),
  ...["m", "male", "man", "männlich", "maennlich", "mann", "herr", "mr"].map((spelling) => [spelling, "male"] as const),
  ...["d", "divers", "diverse", "nonbinary", "nb", "x"].map((spelling) => [spelling, "diverse"] as const),
]);

// Words that say "no information": the field is omitted, as if empty.
const noInformation: ReadonlySet<string> = new Set(["u", "unknown", "unbekannt", "na", "none", "keineangabe", "notspecified"]);

/** A lower-case word: known spellings mapped (see genderBySpelling), other single words lower-cased, anything else dropped. */
export function normaliseGender(value: string | null | undefined): Normalised<string> {
  if (typeof value !== "string") return normalised<string>(undefined);
  const lowerCase = value.normalize("NFC").trim().toLowerCase();
  const spelling = lowerCase.replace(/[\s._/-]+/gu, "");
  if (spelling === "" || noInformation.has(spelling)) return normalised<string>(undefined);
  const known = genderBySpelling.get(spelling);
  if (known !== undefined) return normalised(known);
  if (/^[a-z]+$/.test(lowerCase)) return normalised(lowerCase);
  return normalised<string>(undefined, warningIssue("gender", "invalid_gender", "is not a single word of letters a–z", shownOriginal(value)));
}
