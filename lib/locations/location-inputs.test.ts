import { describe, expect, it } from "vitest";
import { LocationInput, LocationListQuery, LocationUpdateInput } from "./location-inputs";

const valid = {
  name: "Salon North",
  timeZone: "Europe/Berlin",
  country: "de",
  environment: "staging",
  upstreamLocationId: "sbx-loc-1001",
  sourceKey: "salon-north",
};

function problemsOf(input: Record<string, unknown>): Record<string, string> {
  const parsed = LocationInput.safeParse({ ...valid, ...input });
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) problems[issue.path.join(".")] ??= issue.message;
  return problems;
}

describe("LocationInput", () => {
  it("accepts a complete location, upper-cases the country and fills the defaults", () => {
    expect(LocationInput.parse(valid)).toEqual({ ...valid, country: "DE", automotive: false, syncTime: "10:00" });
  });

  it("stores a zone typed in another case as the zone spells itself, and an alias as typed", () => {
    expect(LocationInput.parse({ ...valid, timeZone: "europe/berlin" }).timeZone).toBe("Europe/Berlin");
    expect(LocationInput.parse({ ...valid, timeZone: "AMERICA/NEW_YORK" }).timeZone).toBe("America/New_York");
    expect(LocationInput.parse({ ...valid, timeZone: "Asia/Kolkata" }).timeZone).toBe("Asia/Kolkata");
    expect(LocationInput.parse({ ...valid, timeZone: "US/Eastern" }).timeZone).toBe("US/Eastern");
  });

  it("accepts IANA time zones and refuses anything else", () => {
    expect(problemsOf({ timeZone: "America/New_York" })).toEqual({});
    expect(problemsOf({ timeZone: "Mars/Olympus_Mons" }).timeZone).toMatch(/IANA time zone/);
    expect(problemsOf({ timeZone: "GMT+2" }).timeZone).toMatch(/IANA time zone/);
    expect(problemsOf({ timeZone: "" }).timeZone).toBe("Choose the location's time zone");
    expect(LocationInput.safeParse({ ...valid, timeZone: "" }).error?.issues).toHaveLength(1);
  });

  it("accepts two-letter country codes only", () => {
    expect(problemsOf({ country: "GB" })).toEqual({});
    expect(problemsOf({ country: "XX" }).country).toMatch(/two-letter country code/);
    expect(problemsOf({ country: "DEU" }).country).toMatch(/two-letter country code/);
  });

  it("keeps the sync time inside the 09:00–18:59 window", () => {
    expect(problemsOf({ syncTime: "08:59" }).syncTime).toMatch(/between 09:00 and 18:59/);
    expect(problemsOf({ syncTime: "09:00" })).toEqual({});
    expect(problemsOf({ syncTime: "18:59" })).toEqual({});
    expect(problemsOf({ syncTime: "19:00" }).syncTime).toMatch(/between 09:00 and 18:59/);
    expect(problemsOf({ syncTime: "9:30" }).syncTime).toMatch(/HH:MM/);
    expect(problemsOf({ syncTime: "24:00" }).syncTime).toMatch(/HH:MM/);
  });

  it("refuses upstream location IDs with spaces, slashes, ? or #", () => {
    expect(problemsOf({ upstreamLocationId: "loc_123-ABC.x" })).toEqual({});
    for (const id of ["loc 1", "loc/1", "loc?1", "loc#1", "loc\\1"])
      expect(problemsOf({ upstreamLocationId: id }).upstreamLocationId).toMatch(/spaces, slashes/);
    expect(problemsOf({ upstreamLocationId: "  " }).upstreamLocationId).toBe("Enter the upstream location ID");
    expect(problemsOf({ upstreamLocationId: "x".repeat(201) }).upstreamLocationId).toMatch(/at most 200/);
  });

  it("names the environment choice", () => {
    expect(problemsOf({ environment: "dev" }).environment).toBe("Choose staging or production");
  });
});

describe("LocationUpdateInput", () => {
  it("keeps only the fields given: no default resets automotive or the sync time", () => {
    expect(LocationUpdateInput.parse({ name: "Renamed" })).toEqual({ name: "Renamed" });
  });

  it("refuses an empty change", () => {
    expect(LocationUpdateInput.safeParse({}).success).toBe(false);
  });
});

describe("LocationListQuery", () => {
  it("defaults the page size and refuses unknown statuses", () => {
    expect(LocationListQuery.parse({}).limit).toBe(50);
    expect(LocationListQuery.safeParse({ status: "broken" }).success).toBe(false);
  });
});
