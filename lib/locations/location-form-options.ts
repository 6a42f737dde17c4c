import { getCountries } from "libphonenumber-js/min";

export interface CountryOption {
  code: string;
  name: string;
}

/** IANA zones known to the runtime, plus UTC (the list holds canonical regional zones only) and the current value. */
export function timeZoneOptions(current?: string): string[] {
  const zones = new Set(["UTC", ...Intl.supportedValuesOf("timeZone")]);
  if (current) zones.add(current);
  return [...zones].sort();
}

/** Exactly the codes the CountryCode schema accepts, with English names, sorted by name. */
export function countryOptions(): CountryOption[] {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}
