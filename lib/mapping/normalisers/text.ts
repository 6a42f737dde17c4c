/** Trimmed, each run of whitespace (tabs, line breaks) one space; empty → undefined (the field is omitted). */
export function normaliseText(value: string | null | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/gu, " ").trim();
  return text === "" ? undefined : text;
}
