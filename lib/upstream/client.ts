import type { Dispatcher } from "undici";
import { z } from "zod";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import {
  AccessTokenResponse,
  BulkUploadRequestBody,
  CurrentUserResponse,
  DateRangeImportBody,
  OpeningsImportBody,
  PutDataUrlResponse,
  UpdateManagementSystemBody,
} from "./endpoints";
import { UpstreamError, UpstreamInvalidResponseError, UpstreamRejectedError, UpstreamUploadAddressError, type UpstreamErrorDetail } from "./errors";
import { defaultDateTimeStyle, type DateTimeStyle } from "./formats";
import { createUpstreamDispatcher, performExchange, type AttemptListener, type Exchange, type ExchangeResult } from "./http";
import {
  findDuplicateExternalIds,
  recordSchemasOf,
  type AppointmentRecord,
  type CalendarRecord,
  type ContactDetailRecord,
  type OpeningRecord,
  type ServiceCategoryRecord,
  type ServiceRecord,
  type VehicleRecord,
} from "./records";
import { describeRequestPath } from "./redact";
import { AttemptFailure, defaultRetryPolicy, runWithRetries, type RetryPolicy, type RetryRuntime } from "./retry";
import { canReopen, checkUploadAddress, streamJsonArray, type RecordSource, type UploadProgress } from "./upload";

export interface UpstreamClientOptions {
  /** `{base_url}` of the environment; paths are appended to `{base_url}/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Hosts an upload address may point to ("host", "host:port" or "*.domain"). */
  uploadHosts: readonly string[];
  /** Per API request, connection to last byte. */
  timeoutMs?: number;
  /** Per upload PUT, which may stream hundreds of MB. */
  uploadTimeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  onAttempt?: AttemptListener;
  dateTimeStyle?: DateTimeStyle;
  /** Check every record against its schema before it is sent (default true). */
  validateRecords?: boolean;
  dispatcher?: Dispatcher;
  /** Cancels every request and backoff wait of this client (e.g. a cancelled sync session). */
  signal?: AbortSignal;
  /** Tests: deterministic jitter and waits. */
  retryRuntime?: RetryRuntime;
}

export interface LocationCall {
  accessToken: string;
  locationId: string;
}

export interface UploadOutcome {
  /** Records and bytes of the upload that succeeded, and the SHA-256 (hex) of its body as sent. */
  records: number;
  bytes: number;
  sha256: string | null;
  status: number;
  /** Attempts of the whole operation (POST + upload). */
  attempts: number;
  /** The upstream's answer to the upload (spec: not shown): JSON when JSON, text otherwise, undefined when empty. */
  response: unknown;
}

type SchemaFor<T> = z.ZodType<T>;

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

/** The typed client of the upstream API: one method per endpoint, plus "POST for put_data_url + upload" imports. */
export function createUpstreamClient(options: UpstreamClientOptions) {
  const apiRoot = `${options.baseUrl.replace(/\/+$/, "")}/v1`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const uploadTimeoutMs = options.uploadTimeoutMs ?? 15 * 60_000;
  const policy: RetryPolicy = {
    maxAttempts: options.maxAttempts ?? defaultRetryPolicy.maxAttempts,
    baseDelayMs: options.baseDelayMs ?? defaultRetryPolicy.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? defaultRetryPolicy.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? defaultRetryPolicy.maxRetryAfterMs,
  };
  const schemas = recordSchemasOf(options.dateTimeStyle ?? defaultDateTimeStyle);
  const validate = options.validateRecords ?? true;
  const dispatcher = options.dispatcher ?? createUpstreamDispatcher();
  const retryRuntime: RetryRuntime = { signal: options.signal, ...options.retryRuntime };
  const ownsDispatcher = !options.dispatcher;

  interface ApiRequest {
    operation: string;
    method: "GET" | "POST" | "PUT";
    path: string;
    token?: string;
    body?: unknown;
    secrets?: (string | undefined)[];
    /** The spec shows the answer's body (access_token, put_data_url). */
    bodyShown?: boolean;
  }

  function apiExchange(call: ApiRequest, attempt: number): Exchange {
    const url = new URL(`${apiRoot}${call.path}`);
    const headers: Record<string, string> = { "x-api-key": options.apiKey, accept: "application/json" };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    return {
      operation: call.operation,
      attempt,
      method: call.method,
      url,
      reportedPath: describeRequestPath(url),
      headers,
      body: call.body === undefined ? undefined : phaseClock.time("encode", () => JSON.stringify(call.body)),
      timeoutMs,
      signal: options.signal,
      secrets: [options.apiKey, call.token, ...(call.secrets ?? [])],
      bodyShown: call.bodyShown ?? false,
    };
  }

  async function callApi(call: ApiRequest): Promise<ExchangeResult> {
    return runWithRetries(policy, (attempt) => performExchange(apiExchange(call, attempt), dispatcher, options.onAttempt), retryRuntime);
  }

  /** Bodies the spec shows (access_token, put_data_url): what it shows is required. */
  function readJson<T>(result: ExchangeResult, schema: SchemaFor<T>, where: string): T {
    if (result.text.trim() === "") {
      throw new UpstreamInvalidResponseError(`${where} answered ${result.status} with an empty body`, { status: result.status });
    }
    let json: unknown;
    try {
      json = JSON.parse(result.text);
    } catch {
      throw new UpstreamInvalidResponseError(`${where} answered ${result.status} with a body that is not JSON`, { status: result.status });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "body").join(", ");
      throw new UpstreamInvalidResponseError(`${where} answered ${result.status} without the expected fields (${fields})`, { status: result.status });
    }
    return parsed.data;
  }

  /** Bodies the spec does not show: any 2xx is success, whatever it holds. JSON when JSON, the text otherwise, undefined when empty. */
  function readUnspecified(result: ExchangeResult): unknown {
    if (result.text.trim() === "") return undefined;
    try {
      return JSON.parse(result.text);
    } catch {
      return result.text;
    }
  }

  function checkRequest<T>(schema: SchemaFor<T>, value: unknown, where: string): T {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new UpstreamRejectedError(`${where} was not sent: its body does not match the upstream's rules`, {
      details: parsed.error.issues.map((issue) => ({ ...(issue.path.length ? { field: issue.path.join(".") } : {}), reason: issue.message })),
    });
  }

  function checkRecords<T extends { external_id?: string }>(schema: SchemaFor<T>, records: readonly unknown[], where: string): T[] {
    const details: UpstreamErrorDetail[] = [];
    const checked: T[] = [];
    records.forEach((record, index) => {
      if (!validate) return void checked.push(record as T);
      const parsed = schema.safeParse(record);
      if (parsed.success) checked.push(parsed.data);
      else
        for (const issue of parsed.error.issues)
          details.push({ index, ...(issue.path.length ? { field: issue.path.join(".") } : {}), reason: issue.message });
    });
    for (const duplicate of findDuplicateExternalIds(checked)) {
      details.push({ index: duplicate.index, field: "external_id", reason: `repeats the external_id of record ${duplicate.firstIndex}` });
    }
    if (details.length) {
      throw new UpstreamRejectedError(`${where} was not sent: ${details.length} ${details.length === 1 ? "problem" : "problems"} in its records`, {
        details: details.slice(0, 50),
      });
    }
    return checked;
  }

  const locationPath = (locationId: string, rest: string) => `/locations/${encodeURIComponent(locationId)}${rest}`;

  async function syncBatch<T extends { external_id?: string }>(
    operation: string,
    call: LocationCall & { records: readonly T[] },
    schema: SchemaFor<T>,
    rest: string,
  ): Promise<unknown> {
    const path = locationPath(call.locationId, rest);
    const data = checkRecords(schema, call.records, `POST ${path}`);
    const result = await callApi({ operation, method: "POST", path, token: call.accessToken, body: { data } });
    return readUnspecified(result);
  }

  /** One PUT of the records to an upload address: no API key, no token, streamed, never retried on its own. */
  async function putRecords<T>(operation: string, attempt: number, putDataUrl: string, records: RecordSource<T>, schema: SchemaFor<T>) {
    let url: URL;
    try {
      url = checkUploadAddress(putDataUrl, options.uploadHosts);
    } catch (error) {
      if (error instanceof UpstreamError) throw new AttemptFailure(error, false);
      throw error;
    }
    const progress: UploadProgress = { records: 0, bytes: 0, sha256: null };
    const exchange: Exchange = {
      operation,
      attempt,
      method: "PUT",
      url,
      reportedPath: describeRequestPath(url, { upload: true }),
      headers: { "content-type": "application/json" },
      body: streamJsonArray(records, validate ? schema : undefined, progress),
      timeoutMs: uploadTimeoutMs,
      signal: options.signal,
      // The address is a one-time capability: keep it out of anything reported.
      secrets: [options.apiKey, putDataUrl, url.pathname, url.search.slice(1)],
      progress: () => ({ ...progress }),
    };
    try {
      const result = await performExchange(exchange, dispatcher, options.onAttempt);
      return { result, progress };
    } catch (failure) {
      // 410: the one-time address is used up or expired; a new POST yields a fresh one.
      if (failure instanceof AttemptFailure && failure.error.status === 410) {
        throw new AttemptFailure(failure.error, true, failure.retryAfterMs, failure.report);
      }
      // A redirect is never followed, and the next address would redirect the same way: a refusal, not a failure to retry.
      const status = failure instanceof AttemptFailure ? failure.error.status : undefined;
      if (failure instanceof AttemptFailure && status !== undefined && status >= 300 && status < 400) {
        const refusal = new UpstreamUploadAddressError(
          `The upload host ${url.host} answered a redirect (${status}); upload addresses are used as given, never redirected, so nothing was uploaded. ` +
            "The service must hand out addresses on one of this environment's upload hosts (Settings → Environments).",
          { request: failure.error.request, status },
        );
        throw new AttemptFailure(refusal, false, undefined, failure.report);
      }
      throw failure;
    }
  }

  /** "POST for put_data_url + upload" as one operation: each retry asks for a fresh one-time address. */
  async function importRecords<T>(
    operation: string,
    call: LocationCall & { records: RecordSource<T> },
    schema: SchemaFor<T>,
    rest: string,
    body: unknown,
  ): Promise<UploadOutcome> {
    const path = locationPath(call.locationId, rest);
    const reopenable = canReopen(call.records);
    return runWithRetries(
      policy,
      async (attempt) => {
        const posted = await performExchange(
          apiExchange({ operation, method: "POST", path, token: call.accessToken, body, bodyShown: true }, attempt),
          dispatcher,
          options.onAttempt,
        );
        const { put_data_url: putDataUrl } = readJsonOrFail(posted, PutDataUrlResponse, `POST ${path}`);
        try {
          const { result, progress } = await putRecords(operation, attempt, putDataUrl, call.records, schema);
          return {
            records: progress.records,
            bytes: progress.bytes,
            sha256: progress.sha256,
            status: result.status,
            attempts: attempt,
            response: readUnspecified(result),
          };
        } catch (failure) {
          // A one-shot iterator was partly consumed: another attempt would send a truncated set.
          if (failure instanceof AttemptFailure && failure.retryable && !reopenable) {
            throw new AttemptFailure(failure.error, false, undefined, failure.report);
          }
          throw failure;
        }
      },
      retryRuntime,
    );
  }

  function readJsonOrFail<T>(result: ExchangeResult, schema: SchemaFor<T>, where: string): T {
    try {
      return readJson(result, schema, where);
    } catch (error) {
      if (error instanceof UpstreamError) throw new AttemptFailure(error, false);
      throw error;
    }
  }

  async function requestUploadAddress(operation: string, call: LocationCall, rest: string, body: unknown): Promise<string> {
    const path = locationPath(call.locationId, rest);
    const result = await callApi({ operation, method: "POST", path, token: call.accessToken, body, bodyShown: true });
    return readJson(result, PutDataUrlResponse, `POST ${path}`).put_data_url;
  }

  const dateRange = (call: { startDate: string; endDate: string }, where: string) =>
    checkRequest(DateRangeImportBody, { start_date: call.startDate, end_date: call.endDate }, where);
  const openingsBody = (call: { startDate: string; endDate: string; serviceExternalId: string }, where: string) =>
    checkRequest(OpeningsImportBody, { start_date: call.startDate, end_date: call.endDate, service_external_id: call.serviceExternalId }, where);

  return {
    /** POST /access_tokens – a User Access Token for the owner's email and password. */
    async createUserAccessToken(input: { email: string; password: string; clientId: string; clientSecret: string }): Promise<string> {
      const result = await callApi({
        operation: "createUserAccessToken",
        method: "POST",
        path: "/access_tokens",
        body: { email: input.email, password: input.password, client_id: input.clientId, client_secret: input.clientSecret },
        secrets: [input.password, input.clientSecret],
        bodyShown: true,
      });
      return readJson(result, AccessTokenResponse, "POST /access_tokens").access_token;
    },

    /** POST /access_tokens/locations/{location_id} – a Location Access Token, with the owner's User Access Token. */
    async createLocationAccessToken(input: { userAccessToken: string; locationId: string; clientId: string; clientSecret: string }): Promise<string> {
      const path = `/access_tokens/locations/${encodeURIComponent(input.locationId)}`;
      const result = await callApi({
        operation: "createLocationAccessToken",
        method: "POST",
        path,
        token: input.userAccessToken,
        body: { client_id: input.clientId, client_secret: input.clientSecret },
        secrets: [input.clientSecret],
        bodyShown: true,
      });
      return readJson(result, AccessTokenResponse, `POST ${path}`).access_token;
    },

    /** GET /users/me – any 2xx means the token works; whom it acts as is returned for display only, when readable. */
    async getCurrentUser(input: { accessToken: string }): Promise<CurrentUserResponse> {
      const result = await callApi({ operation: "getCurrentUser", method: "GET", path: "/users/me", token: input.accessToken });
      return CurrentUserResponse.parse(readUnspecified(result));
    },

    /** PUT …/update_management_system – opens (true) or closes (false) the sync session. */
    async updateManagementSystem(input: LocationCall & { managementSystem: string; syncInProgress: boolean }): Promise<unknown> {
      const path = locationPath(input.locationId, "/update_management_system");
      const body = checkRequest(
        UpdateManagementSystemBody,
        { management_system: input.managementSystem, management_system_sync_in_progress: input.syncInProgress },
        `PUT ${path}`,
      );
      const result = await callApi({ operation: "updateManagementSystem", method: "PUT", path, token: input.accessToken, body });
      return readUnspecified(result);
    },

    /** POST …/calendars/batch_sync_calendars – ALL calendars; left-out ones are removed upstream. */
    syncCalendars: (input: LocationCall & { records: readonly CalendarRecord[] }) =>
      syncBatch("syncCalendars", input, schemas.calendars, "/calendars/batch_sync_calendars"),

    /** POST …/service_categories/batch_sync_service_categories. */
    syncServiceCategories: (input: LocationCall & { records: readonly ServiceCategoryRecord[] }) =>
      syncBatch("syncServiceCategories", input, schemas.service_categories, "/service_categories/batch_sync_service_categories"),

    /** POST …/services/batch_sync_services. */
    syncServices: (input: LocationCall & { records: readonly ServiceRecord[] }) =>
      syncBatch("syncServices", input, schemas.services, "/services/batch_sync_services"),

    /** POST …/contact_details/batch_create_or_update with `{}` – a one-time put_data_url. */
    requestContactDetailsUpload: (input: LocationCall) =>
      requestUploadAddress("requestContactDetailsUpload", input, "/contact_details/batch_create_or_update", BulkUploadRequestBody.parse({})),

    /** POST …/vehicles/batch_create_or_update with `{}` – a one-time put_data_url. */
    requestVehiclesUpload: (input: LocationCall) =>
      requestUploadAddress("requestVehiclesUpload", input, "/vehicles/batch_create_or_update", BulkUploadRequestBody.parse({})),

    /** POST …/appointments/batch_sync_appointments – a put_data_url for one inclusive local date range. */
    requestAppointmentsUpload: (input: LocationCall & { startDate: string; endDate: string }) =>
      requestUploadAddress("requestAppointmentsUpload", input, "/appointments/batch_sync_appointments", dateRange(input, "batch_sync_appointments")),

    /** POST …/openings/batch_sync_openings – a put_data_url for one service's openings in a date range. */
    requestOpeningsUpload: (input: LocationCall & { startDate: string; endDate: string; serviceExternalId: string }) =>
      requestUploadAddress("requestOpeningsUpload", input, "/openings/batch_sync_openings", openingsBody(input, "batch_sync_openings")),

    /** PUT of records to a put_data_url, once (a one-time address cannot be retried; use the import* methods). */
    async uploadRecords<T>(input: { putDataUrl: string; records: RecordSource<T>; schema: SchemaFor<T> }): Promise<Omit<UploadOutcome, "attempts">> {
      try {
        const { result, progress } = await putRecords("uploadRecords", 1, input.putDataUrl, input.records, input.schema);
        return {
          records: progress.records,
          bytes: progress.bytes,
          sha256: progress.sha256,
          status: result.status,
          response: readUnspecified(result),
        };
      } catch (failure) {
        if (failure instanceof AttemptFailure) {
          failure.report?.(undefined);
          failure.error.attempts = 1;
          throw failure.error;
        }
        throw failure;
      }
    },

    /** Contact details: POST `{}` for a put_data_url, then stream the records to it; retries repeat both. */
    importContactDetails: (input: LocationCall & { records: RecordSource<ContactDetailRecord> }) =>
      importRecords("importContactDetails", input, schemas.contact_details, "/contact_details/batch_create_or_update", {}),

    /** Vehicles (opt-in, automotive): POST `{}`, then stream the records. */
    importVehicles: (input: LocationCall & { records: RecordSource<VehicleRecord> }) =>
      importRecords("importVehicles", input, schemas.vehicles, "/vehicles/batch_create_or_update", {}),

    /** Appointments of one inclusive local date range: they replace the upstream's appointments in it. */
    importAppointments: (input: LocationCall & { startDate: string; endDate: string; records: RecordSource<AppointmentRecord> }) =>
      importRecords(
        "importAppointments",
        input,
        schemas.appointments,
        "/appointments/batch_sync_appointments",
        dateRange(input, "batch_sync_appointments"),
      ),

    /** Openings of one service in a date range (one request per service). */
    importOpenings: (input: LocationCall & { startDate: string; endDate: string; serviceExternalId: string; records: RecordSource<OpeningRecord> }) =>
      importRecords("importOpenings", input, schemas.openings, "/openings/batch_sync_openings", openingsBody(input, "batch_sync_openings")),

    /** Closes the client's connections (only when it created its own dispatcher). */
    async close(): Promise<void> {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
