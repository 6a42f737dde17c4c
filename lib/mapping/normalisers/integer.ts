import { shownOriginal, warningIssue } from "../issues";
import { normalised, type Normalised } from "./normalised";

/** A whole number (e.g. list_order, a vehicle's year); numeric columns may also arrive as text. Otherwise dropped with a warning. */
export function normaliseInteger(value: number | string | null | undefined, field: string): Normalised<number> {
  if (value === null || value === undefined) return normalised<number>(undefined);
  if (typeof value === "string" && value.trim() === "") return normalised<number>(undefined);
  const number = typeof value === "number" ? value : /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(number)) return normalised(number);
  return normalised<number>(undefined, warningIssue(field, "invalid_integer", "is not a whole number", shownOriginal(String(value))));
}
