import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AlertChannelsInput } from "@/lib/alerts/alert-channel-inputs";
import { AuditLogQuery } from "@/lib/audit/list-audit-events";
import { SignInInput } from "@/lib/auth/sign-in-inputs";
import { EnvironmentUpdateInput } from "@/lib/environments/environment-inputs";
import { FleetMatrixQuery, FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { decodeFleetSessionCursor, encodeFleetSessionCursor } from "@/lib/fleet/fleet-session-cursor";
import { SchedulePauseInput } from "@/lib/fleet/schedule-pause";
import { DomainError } from "@/lib/errors/domain-error";
import { encodePageCursor } from "@/lib/http/page-cursor";
import { decodeLocationCursor } from "@/lib/locations/location-cursor";
import { ConnectLocationInput, LocationInput, LocationListQuery, LocationUpdateInput, OwnerInvitationInput } from "@/lib/locations/location-inputs";
import { PreviewQuery, PreviewRecordParams } from "@/lib/preview/preview-inputs";
import { SandboxInspectQuery } from "@/lib/sandbox/inspect";
import { decodeSessionCursor } from "@/lib/sync/session-cursor";
import { ConfirmRemovalsInput, ReplayInput, SessionHistoryQuery } from "@/lib/sync/session-inputs";
import { CreateUserInput } from "@/lib/users/user-inputs";

const location = {
  name: "Salon North",
  timeZone: "Europe/Berlin",
  country: "DE",
  environment: "staging",
  upstreamLocationId: "sbx-1",
  sourceKey: "north",
};
const environment = {
  baseUrl: "https://api.example.test",
  uploadHosts: ["uploads.example.test"],
  clientId: "client",
  dataSourceName: "Salon Suite",
  apiKey: "key",
  clientSecret: "secret",
};

/** Every text field a person (or a URL) fills in, with an otherwise valid input around it. */
const textFields: [string, string, z.ZodType, Record<string, unknown>][] = [
  ["location", "name", LocationInput, location],
  ["location", "sourceKey", LocationInput, location],
  ["location", "upstreamLocationId", LocationInput, location],
  ["location", "timeZone", LocationInput, location],
  ["location", "country", LocationInput, location],
  ["location update", "name", LocationUpdateInput, {}],
  ["location update", "sourceKey", LocationUpdateInput, {}],
  ["location list", "q", LocationListQuery, {}],
  ["location list", "after", LocationListQuery, {}],
  ["location list", "before", LocationListQuery, {}],
  ["connect", "email", ConnectLocationInput, { email: "owner@example.test", password: "secret" }],
  ["owner invitation", "name", OwnerInvitationInput, { email: "owner@example.test" }],
  ["user", "name", CreateUserInput, { email: "new@example.test", role: "support" }],
  ["schedule pause", "reason", SchedulePauseInput, { paused: true, reason: "holiday" }],
  ["confirm removals", "reason", ConfirmRemovalsInput, { reason: "the salon closed" }],
  ["session history", "after", SessionHistoryQuery, {}],
  ["session history", "before", SessionHistoryQuery, {}],
  ["fleet sessions", "q", FleetSessionQuery, {}],
  ["fleet sessions", "after", FleetSessionQuery, {}],
  ["fleet matrix", "q", FleetMatrixQuery, {}],
  ["preview records", "q", PreviewQuery, {}],
  ["audit log", "action", AuditLogQuery, {}],
  ["audit log", "actor", AuditLogQuery, {}],
  ["sandbox inspector", "location", SandboxInspectQuery, {}],
  ["environment", "clientId", EnvironmentUpdateInput, environment],
  ["environment", "dataSourceName", EnvironmentUpdateInput, environment],
  ["environment", "apiKey", EnvironmentUpdateInput, environment],
  ["environment", "clientSecret", EnvironmentUpdateInput, environment],
  ["environment", "baseUrl", EnvironmentUpdateInput, environment],
  ["sign-in", "email", SignInInput, { email: "admin@demo.test", password: "a password" }],
];

const hostile = ["a\u0000b", "a\ud800b", "Salon \u001b[2J", "Salon \u202Egnp", "ad\u200bmin", "a\u2066b"];

describe("every text input refuses control, invisible and direction characters, naming the field", () => {
  it.each(textFields)("%s › %s", (_, field, schema, valid) => {
    for (const text of hostile) {
      const parsed = schema.safeParse({ ...valid, [field]: `x${text}` });
      expect(parsed.success, JSON.stringify(text)).toBe(false);
      const issue = parsed.error!.issues.find((candidate) => candidate.path.join(".") === field);
      expect(issue?.message, JSON.stringify(text)).toMatch(
        /must not contain control, invisible or text-direction characters \(U\+[0-9A-F]{4} at character \d+\)/,
      );
    }
  });

  it("still accepts the valid inputs around them", () => {
    // Fields with a format of their own (ids, zones, URLs, cursors, emails) are covered by their own tests.
    const formatted = ["after", "before", "country", "timeZone", "baseUrl", "email", "upstreamLocationId"];
    for (const [, field, schema, valid] of textFields.filter(([, field]) => !formatted.includes(field))) {
      expect(schema.safeParse({ ...valid, [field]: "Zoë’s Café — 東京 😀" }).success, field).toBe(true);
    }
  });

  it("lets reasons span lines", () => {
    expect(ConfirmRemovalsInput.safeParse({ reason: "The salon closed.\nThe owner asked us by phone." }).success).toBe(true);
    expect(SchedulePauseInput.safeParse({ paused: true, reason: "Holiday\r\nBack on Monday" }).success).toBe(true);
  });

  it("refuses NUL and lone surrogates in a sign-in password, and over-long values", () => {
    expect(SignInInput.safeParse({ email: "admin@demo.test", password: "pass\u0000word" }).success).toBe(false);
    expect(SignInInput.safeParse({ email: "admin@demo.test", password: "pass\udc00word" }).success).toBe(false);
    expect(SignInInput.safeParse({ email: "admin@demo.test", password: "x".repeat(1025) }).success).toBe(false);
    expect(SignInInput.safeParse({ email: `${"a".repeat(250)}@demo.test`, password: "x" }).success).toBe(false);
    expect(SignInInput.safeParse({ email: "admin@demo.test", password: "pässwörd 😀 \t" }).success).toBe(true);
  });

  it("refuses alert recipients with control characters", () => {
    expect(AlertChannelsInput.safeParse({ recipients: ["ops\u0000@example.test"] }).success).toBe(false);
  });
});

function invalidCursor(decode: () => unknown): DomainError {
  try {
    decode();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("page cursors", () => {
  const id = "00000000-0000-4000-8000-000000000000";

  it("refuse NUL or lone surrogates smuggled in as JSON escapes", () => {
    expect(invalidCursor(() => decodeLocationCursor(encodePageCursor(["a\u0000", id]), "after"))).toMatchObject({
      code: "INVALID",
      fields: [{ field: "after" }],
    });
    expect(invalidCursor(() => decodeLocationCursor(encodePageCursor(["\ud800", id]), "before")).code).toBe("INVALID");
    expect(decodeLocationCursor(encodePageCursor(["salon", id]), "after")).toEqual({ sortName: "salon", id });
  });

  it("refuse times PostgreSQL would not accept", () => {
    for (const time of ["2024-13-01T00:00:00.000000Z", "2024-02-31T00:00:00.000000Z", "0000-01-01T00:00:00.000000Z", "2024-01-01T24:00:00.000000Z"]) {
      expect(invalidCursor(() => decodeSessionCursor(encodePageCursor([time, id]), "after")).code, time).toBe("INVALID");
      expect(invalidCursor(() => decodeFleetSessionCursor(encodePageCursor([0, time, id]))).code, time).toBe("INVALID");
    }
    // A fleet cursor once took anything Date.parse reads ("1", "Tue"): PostgreSQL does not.
    expect(invalidCursor(() => decodeFleetSessionCursor(encodePageCursor([0, "1", id]))).code).toBe("INVALID");
    const cursor = encodeFleetSessionCursor({ priority: 1, createdAt: "2024-02-29T10:11:12.123456Z", id });
    expect(decodeFleetSessionCursor(cursor)).toEqual({ priority: 1, createdAt: "2024-02-29T10:11:12.123456Z", id });
  });
});

describe("audit log filters", () => {
  it("refuse a malformed date, an impossible time or an over-long id in the cursor", () => {
    for (const before of [
      "2024-99-99T99:99Z_1",
      "2024-02-31T00:00:00.000Z_1",
      "2024-01-01T00:00:00.000Z_99999999999999999999999",
      "2024-01-01T00:00:00.000Z_",
    ]) {
      expect(AuditLogQuery.safeParse({ before }).success, before).toBe(false);
    }
    expect(AuditLogQuery.safeParse({ before: "2024-01-01T00:00:00.000Z_123" }).success).toBe(true);
  });

  it("refuse dates PostgreSQL and JavaScript disagree on", () => {
    for (const date of ["0000-01-01", "9999-12-31", "2024-02-30"])
      expect(AuditLogQuery.safeParse({ from: date, to: date }).success, date).toBe(false);
    expect(AuditLogQuery.safeParse({ from: "2024-01-01", to: "2024-12-31" }).success).toBe(true);
  });
});

describe("dates and positions that reach PostgreSQL", () => {
  it("refuse, in every date filter, a day PostgreSQL's date cannot hold", () => {
    for (const date of ["0000-01-01", "0000-02-29", "9999-12-31"]) {
      expect(FleetSessionQuery.safeParse({ created: date }).success, `created ${date}`).toBe(false);
      expect(FleetSessionQuery.safeParse({ ended: date }).success, `ended ${date}`).toBe(false);
      expect(ReplayInput.safeParse({ steps: ["appointments"], from: date, to: "2026-01-31", reason: "r" }).success, `from ${date}`).toBe(false);
    }
    expect(FleetSessionQuery.safeParse({ created: "2026-03-10", ended: "2026-03-10" }).success).toBe(true);
  });

  it("refuse record positions past PostgreSQL's integer, and a cause whose parts decode to a NUL", () => {
    expect(PreviewQuery.safeParse({ record: "2147483648" }).success).toBe(false);
    expect(PreviewQuery.safeParse({ record: "2147483647" }).success).toBe(true);
    expect(PreviewRecordParams.safeParse({ locationId: "00000000-0000-4000-8000-000000000000", seq: "2147483648" }).success).toBe(false);
    for (const cause of ["issue:contact_details:warning:phone:%00", "missing:contact_details:a%00b", "excluded:appointments:%00"])
      expect(PreviewQuery.safeParse({ cause }).success, cause).toBe(false);
    expect(PreviewQuery.safeParse({ cause: "issue:contact_details:warning:phone:invalid_phone" }).success).toBe(true);
  });
});
