/** Trimmed, each run of whitespace (tabs, line breaks) one space; empty → undefined (the field is omitted). */
export function normaliseText(value: string | null | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/gu, " ").trim();
  return text === "" ? undefined : text;
}

/**
 * A free-text field the upstream may hold from an earlier sync: empty or missing → "" (never omitted), because the
 * upstream's create-or-update keeps a field it is not sent, so emptying it in the source must send it empty.
 */
export function normaliseClearableText(value: string | null | undefined): string {
  return normaliseText(value) ?? "";
}
