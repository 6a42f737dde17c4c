const formatters = new Map<string, Intl.DateTimeFormat>();

/** "Tue 10:00" in the given IANA zone: a daily schedule's next run, read in the location's own time. */
export function formatWeekdayTime(value: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(value).replace(",", "");
}
