import { and, eq, inArray, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { sandboxAccessTokens, sandboxRecords, sandboxUploads, type SandboxRecordType } from "@/db/schema";
import { verifyPassword } from "@/lib/auth/passwords";
import {
  assertClient,
  assertLocationAccess,
  findLocation,
  findUserByEmail,
  resolveToken,
  type SandboxEnvironment,
  type SandboxLocation,
} from "./auth";
import { defaultUploadTtlSeconds, maxReportedDetails, type SandboxContext } from "./context";
import { jsonResponse, readLimitedJson, SandboxError } from "./errors";
import {
  AccessTokenRequest,
  BatchSyncBody,
  BulkUploadRequestBody,
  DateRangeImportBody,
  LocationAccessTokenRequest,
  OpeningsImportBody,
  recordKeyOf,
  recordSchemasOf,
  UpdateManagementSystemBody,
} from "./schemas";
import { putDataUrlResponse, shapedResponse } from "./response-shapes";
import { createRandomToken, hashSecret } from "./secrets";
import { closeSession, openSession } from "./session";
import { describeIssues, toDetail, validateRecord, type RecordProblem } from "./validate";

export interface ApiCall {
  request: Request;
  context: SandboxContext;
  environment: SandboxEnvironment;
  params: Record<string, string>;
  /** Set once known, for the request log. */
  note: { locationId?: string };
}

// The whole batch of calendars, categories or services travels in one body; contacts and appointments go to upload addresses.
const API_MAX_BODY_BYTES = 32 * 1024 * 1024;

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const read = await readLimitedJson(request, API_MAX_BODY_BYTES);
  const body = read === "" ? {} : read;
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new SandboxError(400, "invalid_json", "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new SandboxError(422, "invalid_request", "The request body is not valid.", describeIssues(parsed.error.issues));
  }
  return parsed.data;
}

// POST /v1/access_tokens – a User Access Token for email + password
export async function issueUserToken(call: ApiCall): Promise<Response> {
  const body = parseBody(AccessTokenRequest, await readJsonObject(call.request));
  assertClient(call.environment, body.client_id, body.client_secret);
  const user = await findUserByEmail(call.context.db, call.environment, body.email);
  if (!(await verifyPassword(user?.passwordHash, body.password)) || !user) {
    throw new SandboxError(401, "invalid_credentials", "The email or password is not valid.");
  }
  const token = createRandomToken("sbx_u_");
  await call.context.db.insert(sandboxAccessTokens).values({ tokenHash: hashSecret(token), kind: "user", userId: user.id });
  return jsonResponse(200, { access_token: token });
}

// POST /v1/access_tokens/locations/{location_id} – a Location Access Token, for the owner's user token
export async function issueLocationToken(call: ApiCall): Promise<Response> {
  const token = await resolveToken(call.context.db, call.environment, call.request);
  if (token.kind !== "user") {
    throw new SandboxError(401, "wrong_token_kind", "This endpoint needs a User Access Token, not a Location Access Token.");
  }
  const body = parseBody(LocationAccessTokenRequest, await readJsonObject(call.request));
  assertClient(call.environment, body.client_id, body.client_secret);
  const location = await findLocation(call.context.db, call.environment, call.params.location_id!);
  call.note.locationId = location.id;
  assertLocationAccess(token, location);
  const locationToken = createRandomToken("sbx_l_");
  await call.context.db
    .insert(sandboxAccessTokens)
    .values({ tokenHash: hashSecret(locationToken), kind: "location", userId: token.user.id, locationId: location.id });
  return jsonResponse(200, { access_token: locationToken });
}

// GET /v1/users/me – who the token acts as (a body the spec does not show)
export async function describeCurrentUser(call: ApiCall): Promise<Response> {
  const token = await resolveToken(call.context.db, call.environment, call.request);
  return shapedResponse(call.environment.responseShape, {
    id: token.user.id,
    email: token.user.email,
    name: token.user.name,
    ...(token.locationId ? { location_id: token.locationId } : {}),
  });
}

async function authorizeLocationCall(call: ApiCall, { needsSync }: { needsSync: boolean }): Promise<SandboxLocation> {
  const token = await resolveToken(call.context.db, call.environment, call.request);
  const location = await findLocation(call.context.db, call.environment, call.params.location_id!);
  call.note.locationId = location.id;
  assertLocationAccess(token, location);
  if (needsSync && !location.syncInProgress) {
    throw new SandboxError(409, "not_in_sync", "The location is not in sync: set management_system_sync_in_progress true first.");
  }
  return location;
}

// PUT /v1/locations/{location_id}/update_management_system – opens or closes the sync session
export async function updateManagementSystem(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: false });
  const body = parseBody(UpdateManagementSystemBody, await readJsonObject(call.request));
  if (body.management_system !== call.environment.dataSourceName) {
    throw new SandboxError(422, "data_source_mismatch", "management_system is not this client's Data Source Name.", [
      { field: "management_system", reason: "must be the Data Source Name issued with the credentials" },
    ]);
  }
  if (body.management_system_sync_in_progress) {
    const sessionId = await openSession(call.context.db, location.id, body.management_system);
    return shapedResponse(call.environment.responseShape, {
      location_id: location.id,
      management_system: body.management_system,
      management_system_sync_in_progress: true,
      session_id: sessionId,
    });
  }
  const closed = await closeSession(call.context.db, location.id);
  return shapedResponse(call.environment.responseShape, {
    location_id: location.id,
    management_system: body.management_system,
    management_system_sync_in_progress: false,
    ...(closed ? { session_id: closed.sessionId, processed: closed.counts } : {}),
  });
}

function rejectRecords(problems: RecordProblem[]): never {
  const code = problems[0]?.code ?? "invalid_records";
  const messages: Record<string, string> = {
    invalid_records: "Some records are not valid.",
    duplicate_external_id: "An external_id appears more than once.",
    unknown_reference: "A record refers to an unknown object.",
    out_of_range: "A record lies outside the request's date range.",
    beyond_openings_horizon: "An opening lies beyond the next 72 hours.",
    multiple_services: "An openings request covers exactly one service.",
  };
  throw new SandboxError(422, code, messages[code] ?? "Some records are not valid.", problems.slice(0, maxReportedDetails).map(toDetail));
}

async function existingKeys(db: Database, locationId: string, type: SandboxRecordType, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: sandboxRecords.key })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, locationId), eq(sandboxRecords.type, type), inArray(sandboxRecords.key, keys)));
  return new Set(rows.map((row) => row.key));
}

interface KeyedRecord {
  key: string;
  record: Record<string, unknown>;
}

function validateDataArray<T extends { external_id?: string; id?: string }>(
  schema: z.ZodType<T>,
  body: Record<string, unknown>,
): (KeyedRecord & { record: T })[] {
  const { data } = parseBody(BatchSyncBody, body);
  const problems: RecordProblem[] = [];
  const records: (KeyedRecord & { record: T })[] = [];
  const seen = new Set<string>();
  data.forEach((value, index) => {
    const result = validateRecord(schema, value, index);
    problems.push(...result.problems);
    if (!result.record) return;
    const key = recordKeyOf(result.record)!;
    if (seen.has(key)) {
      problems.push({
        code: "duplicate_external_id",
        index,
        field: result.record.external_id === undefined ? "id" : "external_id",
        reason: "appears more than once in this request",
      });
    }
    seen.add(key);
    records.push({ key, record: result.record });
  });
  if (problems.length) rejectRecords(problems);
  return records;
}

const schemasOf = (call: ApiCall) => recordSchemasOf(call.environment.dateTimeStyle);

async function replaceRecords(db: Database, locationId: string, type: SandboxRecordType, records: KeyedRecord[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(sandboxRecords).where(and(eq(sandboxRecords.locationId, locationId), eq(sandboxRecords.type, type)));
    if (type === "services") {
      // A service removed from the menu takes its openings with it (appointments keep naming it: they are history).
      const kept = records.map(({ key }) => key);
      await tx
        .delete(sandboxRecords)
        .where(
          and(
            eq(sandboxRecords.locationId, locationId),
            eq(sandboxRecords.type, "openings"),
            kept.length ? notInArray(sandboxRecords.serviceExternalId, kept) : undefined,
          ),
        );
    }
    for (let start = 0; start < records.length; start += 1000) {
      const chunk = records.slice(start, start + 1000);
      await tx.insert(sandboxRecords).values(chunk.map(({ key, record }) => ({ locationId, type, key, data: record })));
    }
  });
}

// POST …/calendars/batch_sync_calendars – replaces all calendars
export async function syncCalendars(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  const records = validateDataArray(schemasOf(call).calendars, await readJsonObject(call.request));
  await replaceRecords(call.context.db, location.id, "calendars", records);
  return shapedResponse(call.environment.responseShape, { synced: records.length });
}

// POST …/service_categories/batch_sync_service_categories – replaces all service categories
export async function syncServiceCategories(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  const records = validateDataArray(schemasOf(call).service_categories, await readJsonObject(call.request));
  await replaceRecords(call.context.db, location.id, "service_categories", records);
  return shapedResponse(call.environment.responseShape, { synced: records.length });
}

// POST …/services/batch_sync_services – replaces all services; categories and calendars must exist
export async function syncServices(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  const records = validateDataArray(schemasOf(call).services, await readJsonObject(call.request));
  const categories = await existingKeys(call.context.db, location.id, "service_categories", [
    ...new Set(records.flatMap(({ record }) => record.service_category_external_id ?? [])),
  ]);
  const calendars = await existingKeys(call.context.db, location.id, "calendars", [
    ...new Set(records.flatMap(({ record }) => record.calendar_external_ids ?? [])),
  ]);
  const problems: RecordProblem[] = [];
  records.forEach(({ record }, index) => {
    if (record.service_category_external_id !== undefined && !categories.has(record.service_category_external_id)) {
      problems.push({ code: "unknown_reference", index, field: "service_category_external_id", reason: "no service category has this external_id" });
    }
    (record.calendar_external_ids ?? []).forEach((calendarId, position) => {
      if (!calendars.has(calendarId)) {
        problems.push({ code: "unknown_reference", index, field: `calendar_external_ids.${position}`, reason: "no calendar has this external_id" });
      }
    });
  });
  if (problems.length) rejectRecords(problems);
  await replaceRecords(call.context.db, location.id, "services", records);
  return shapedResponse(call.environment.responseShape, { synced: records.length });
}

/** The origin the client addressed: Next builds request.url from its own hostname, the Host header is what the client used. */
function originCalled(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `${url.protocol}//${host}` : url.origin;
}

async function issueUploadAddress(
  call: ApiCall,
  location: SandboxLocation,
  kind: (typeof sandboxUploads.$inferInsert)["kind"],
  parameters: Record<string, string>,
): Promise<Response> {
  const token = createRandomToken("", 24);
  const now = call.context.now?.() ?? new Date();
  const ttl = call.context.uploadTtlSeconds ?? defaultUploadTtlSeconds;
  await call.context.db.insert(sandboxUploads).values({
    tokenHash: hashSecret(token),
    kind,
    locationId: location.id,
    sessionId: location.currentSessionId!,
    parameters,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttl * 1000),
  });
  const base = call.context.uploadBaseUrl ?? `${originCalled(call.request)}${call.context.uploadPrefix}`;
  return putDataUrlResponse(call.environment.responseShape, `${base.replace(/\/$/, "")}/${token}`);
}

// POST …/contact_details/batch_create_or_update – an upload address for contact details
export async function requestContactUpload(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  parseBody(BulkUploadRequestBody, await readJsonObject(call.request));
  return issueUploadAddress(call, location, "contact_details", {});
}

// POST …/vehicles/batch_create_or_update – an upload address for vehicles
export async function requestVehicleUpload(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  parseBody(BulkUploadRequestBody, await readJsonObject(call.request));
  return issueUploadAddress(call, location, "vehicles", {});
}

// POST …/appointments/batch_sync_appointments – an upload address for one inclusive date range
export async function requestAppointmentUpload(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  const body = parseBody(DateRangeImportBody, await readJsonObject(call.request));
  return issueUploadAddress(call, location, "appointments", { start_date: body.start_date, end_date: body.end_date });
}

// POST …/openings/batch_sync_openings – an upload address for one service's openings in a range
export async function requestOpeningUpload(call: ApiCall): Promise<Response> {
  const location = await authorizeLocationCall(call, { needsSync: true });
  const raw = await readJsonObject(call.request);
  // Checked before the body schema so the answer names the rule (spec 4.4.5), not a type mismatch.
  if (Array.isArray(raw.service_external_id)) {
    rejectRecords([{ code: "multiple_services", field: "service_external_id", reason: "must name exactly one service" }]);
  }
  const body = parseBody(OpeningsImportBody, raw);
  const serviceId = body.service_external_id;
  const services = await existingKeys(call.context.db, location.id, "services", [serviceId]);
  if (!services.has(serviceId)) {
    rejectRecords([{ code: "unknown_reference", field: "service_external_id", reason: "no service has this external_id" }]);
  }
  return issueUploadAddress(call, location, "openings", {
    start_date: body.start_date,
    end_date: body.end_date,
    service_external_id: serviceId,
  });
}
