const formatters = new Map<string, Intl.DateTimeFormat>();

/** "23 Nov 2026, 10:52" in the given IANA zone; the same text on the server and in the browser. */
export function formatDateTime(value: Date | string, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(typeof value === "string" ? new Date(value) : value);
}
