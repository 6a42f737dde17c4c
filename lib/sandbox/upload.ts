import { createHash } from "node:crypto";
import { JSONParser } from "@streamparser/json";
import { and, eq, sql } from "drizzle-orm";
import { sandboxStagedRecords, sandboxUploads } from "@/db/schema";
import { maxReportedDetails, openingsHorizonHours, type SandboxContext } from "./context";
import { SandboxError } from "./errors";
import { shapedResponse, type SandboxResponseShape } from "./response-shapes";
import { parseUpstreamDateTime, recordKeyOf, recordSchemasOf, type DateTimeStyle } from "./schemas";
import { hashSecret } from "./secrets";
import { lockLocation } from "./session";
import { localDateOf, toDetail, validateRecord, type RecordProblem } from "./validate";

type Upload = typeof sandboxUploads.$inferSelect;

interface StagedRow {
  position: number;
  key: string;
  data: Record<string, unknown>;
  localDate: string | null;
  references: { type: "calendars" | "services" | "contact_details"; key: string; field: string }[];
}

const batchSize = 1000;

/** Finds and claims a one-time upload address: unknown → 404, expired or already used → 410. */
export async function claimUpload(context: SandboxContext, token: string): Promise<Upload> {
  const now = context.now?.() ?? new Date();
  const [upload] = await context.db
    .select()
    .from(sandboxUploads)
    .where(eq(sandboxUploads.tokenHash, hashSecret(token)));
  if (!upload) throw new SandboxError(404, "unknown_upload_address", "No upload address matches this URL.");
  if (upload.usedAt) throw new SandboxError(410, "upload_address_used", "This upload address was already used; request a new one.");
  if (upload.expiresAt.getTime() <= now.getTime()) {
    throw new SandboxError(410, "upload_address_expired", "This upload address has expired; request a new one.");
  }
  const [claimed] = await context.db
    .update(sandboxUploads)
    .set({ usedAt: now, status: "receiving" })
    .where(and(eq(sandboxUploads.id, upload.id), sql`${sandboxUploads.usedAt} is null`))
    .returning();
  if (!claimed) throw new SandboxError(410, "upload_address_used", "This upload address was already used; request a new one.");
  return claimed;
}

interface UploadRules {
  kind: Upload["kind"];
  parameters: Record<string, string>;
  style: DateTimeStyle;
  schemas: ReturnType<typeof recordSchemasOf>;
  horizon: number;
}

function rulesOf(upload: Upload, style: DateTimeStyle, now: Date): UploadRules {
  return {
    kind: upload.kind,
    parameters: upload.parameters,
    style,
    schemas: recordSchemasOf(style),
    horizon: now.getTime() + openingsHorizonHours * 3600_000,
  };
}

function referencesOf(record: Record<string, unknown>, fields: [StagedRow["references"][number]["type"], string][]): StagedRow["references"] {
  return fields.flatMap(([type, field]) => (typeof record[field] === "string" ? [{ type, key: record[field], field }] : []));
}

function checkElement(rules: UploadRules, value: unknown, index: number): { row?: StagedRow; problems: RecordProblem[] } {
  const { parameters } = rules;
  const outsideRange = (localDate: string): RecordProblem[] =>
    localDate < parameters.start_date! || localDate > parameters.end_date!
      ? [{ code: "out_of_range", index, field: "start_at", reason: `must lie within ${parameters.start_date}..${parameters.end_date}` }]
      : [];
  switch (rules.kind) {
    case "contact_details":
    case "vehicles": {
      const { record, problems } = validateRecord(rules.schemas[rules.kind], value, index);
      if (!record) return { problems };
      const data = record as Record<string, unknown>;
      const references = rules.kind === "vehicles" ? referencesOf(data, [["contact_details", "contact_detail_external_id"]]) : [];
      return { problems, row: { position: index, key: recordKeyOf(record)!, data, localDate: null, references } };
    }
    case "appointments": {
      const { record, problems } = validateRecord(rules.schemas.appointments, value, index);
      if (!record) return { problems };
      const localDate = localDateOf(record.start_at);
      problems.push(...outsideRange(localDate));
      const data = record as Record<string, unknown>;
      const references = referencesOf(data, [
        ["contact_details", "contact_detail_external_id"],
        ["services", "service_external_id"],
        ["calendars", "calendar_external_id"],
      ]);
      return { problems, row: { position: index, key: recordKeyOf(record)!, data, localDate, references } };
    }
    case "openings": {
      const carried = value && typeof value === "object" ? (value as Record<string, unknown>).service_external_id : undefined;
      if (carried !== undefined && carried !== parameters.service_external_id) {
        return {
          problems: [
            {
              code: "multiple_services",
              index,
              field: "service_external_id",
              reason: "an openings request covers only the service named in the request",
            },
          ],
        };
      }
      const { record, problems } = validateRecord(rules.schemas.openings, value, index);
      if (!record) return { problems };
      const localDate = localDateOf(record.start_at);
      problems.push(...outsideRange(localDate));
      if (parseUpstreamDateTime(record.start_at, rules.style).getTime() > rules.horizon) {
        problems.push({ code: "beyond_openings_horizon", index, field: "start_at", reason: "is beyond the next 72 hours" });
      }
      return {
        problems,
        row: {
          position: index,
          key: `${parameters.service_external_id}|${record.calendar_external_id}|${record.start_at}`,
          data: record,
          localDate,
          references: [{ type: "calendars", key: record.calendar_external_id, field: "calendar_external_id" }],
        },
      };
    }
  }
}

/** Which of `keys` exist for the location, stored or staged by an accepted upload of this session. */
async function findKnownKeys(context: SandboxContext, upload: Upload, type: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const list = sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  );
  const rows = await context.db.execute<{ key: string }>(sql`
    select key from sandbox.records where location_id = ${upload.locationId} and type = ${type} and key in (${list})
    union
    select s.key from sandbox.staged_records s join sandbox.uploads u on u.id = s.upload_id
    where u.session_id = ${upload.sessionId} and u.status = 'accepted' and u.kind = ${type} and s.key in (${list})`);
  return new Set(rows.map((row) => row.key));
}

/**
 * PUT to a one-time upload address: the body is parsed as a stream, every element is
 * validated as it arrives, valid ones are staged in batches; any problem rejects the whole upload.
 */
export async function receiveUpload(
  request: Request,
  context: SandboxContext,
  upload: Upload,
  environment: UploadEnvironment,
  options: { miscount?: boolean } = {},
): Promise<Response> {
  const rules = rulesOf(upload, environment.style, context.now?.() ?? new Date());
  const problems: RecordProblem[] = [];
  const seen = new Set<string>();
  const known = new Map<string, Set<string>>();
  let pending: StagedRow[] = [];
  let count = 0;
  let bytes = 0;
  const hash = createHash("sha256");
  let sawArray: boolean | undefined;

  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  parser.onValue = ({ value }) => {
    const index = count++;
    if (context.countOnly) return;
    if (problems.length >= maxReportedDetails) return;
    const result = checkElement(rules, value, index);
    problems.push(...result.problems);
    if (!result.row) return;
    if (seen.has(result.row.key)) {
      problems.push({
        code: "duplicate_external_id",
        index,
        field: upload.kind === "openings" ? "start_at" : "external_id",
        reason: upload.kind === "openings" ? "the same calendar and start_at appear more than once" : "appears more than once in this upload",
      });
    }
    seen.add(result.row.key);
    if (problems.length === 0) pending.push(result.row);
  };

  const flush = async () => {
    const rows = pending;
    pending = [];
    if (rows.length === 0 || problems.length > 0) return;
    const wanted = new Map<string, Set<string>>();
    for (const row of rows) {
      for (const reference of row.references) {
        if (known.get(reference.type)?.has(reference.key)) continue;
        if (!wanted.has(reference.type)) wanted.set(reference.type, new Set());
        wanted.get(reference.type)!.add(reference.key);
      }
    }
    for (const [type, keys] of wanted) {
      const found = await findKnownKeys(context, upload, type, [...keys]);
      if (!known.has(type)) known.set(type, new Set());
      for (const key of found) known.get(type)!.add(key);
    }
    for (const row of rows) {
      for (const reference of row.references) {
        if (!known.get(reference.type)?.has(reference.key)) {
          problems.push({
            code: "unknown_reference",
            index: row.position,
            field: reference.field,
            reason: `no ${reference.type.replace(/s$/, "").replaceAll("_", " ")} has this external_id`,
          });
        }
      }
    }
    if (problems.length > 0) return;
    await context.db
      .insert(sandboxStagedRecords)
      .values(rows.map((row) => ({ uploadId: upload.id, position: row.position, key: row.key, data: row.data, localDate: row.localDate })));
  };

  try {
    await assertUploadSessionOpen(context, upload);
    if (!request.body) throw new SandboxError(400, "not_an_array", "The upload body must be a JSON array.");
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new SandboxError(400, "upload_interrupted", "The upload body ended before it was complete (connection lost).");
      });
      if (done) break;
      bytes += value.byteLength;
      hash.update(value);
      if (sawArray === undefined) {
        const first = value.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
        if (first !== undefined) sawArray = first === 0x5b;
        if (sawArray === false) {
          await reader.cancel().catch(() => {});
          throw new SandboxError(400, "not_an_array", "The upload body must be a JSON array.");
        }
      }
      try {
        parser.write(value);
      } catch {
        await reader.cancel().catch(() => {});
        throw new SandboxError(400, "invalid_json", "The upload body is not valid JSON.");
      }
      if (pending.length >= batchSize) await flush();
    }
    if (!sawArray) throw new SandboxError(400, "not_an_array", "The upload body must be a JSON array.");
    if (!parser.isEnded) {
      try {
        parser.end();
      } catch {
        throw new SandboxError(400, "invalid_json", "The upload body is not valid JSON.");
      }
    }
    await flush();
    if (problems.length > 0) {
      const code = problems[0]!.code;
      throw new SandboxError(
        422,
        code,
        "The upload was rejected as a whole; nothing of it was kept.",
        problems.slice(0, maxReportedDetails).map(toDetail),
      );
    }
    await acceptUpload(context, upload, { count, bytes, sha256: hash.digest("hex") });
  } catch (error) {
    await rejectUpload(context, upload, error, count, bytes);
    throw error;
  }
  if (context.stats) {
    context.stats.uploads += 1;
    context.stats.records += count;
    context.stats.bytes += bytes;
  }
  // The spec shows neither the status nor the body of the upload's answer.
  return shapedResponse(environment.responseShape, { received: options.miscount ? count - 1 : count });
}

async function acceptUpload(context: SandboxContext, upload: Upload, body: { count: number; bytes: number; sha256: string }): Promise<void> {
  await context.db.transaction(async (tx) => {
    const location = await lockLocation(tx, upload.locationId);
    if (!location.syncInProgress || location.currentSessionId !== upload.sessionId) {
      throw new SandboxError(409, "not_in_sync", "The sync session of this upload address is closed.");
    }
    await tx
      .update(sandboxUploads)
      .set({ status: "accepted", recordCount: body.count, byteCount: Math.min(body.bytes, 2 ** 31 - 1), bodySha256: body.sha256 })
      .where(eq(sandboxUploads.id, upload.id));
  });
}

async function rejectUpload(context: SandboxContext, upload: Upload, error: unknown, count: number, bytes: number): Promise<void> {
  const rejection = error instanceof SandboxError ? { code: error.code, details: error.details.slice(0, 5) } : { code: "internal_error" };
  await context.db.delete(sandboxStagedRecords).where(eq(sandboxStagedRecords.uploadId, upload.id));
  await context.db
    .update(sandboxUploads)
    .set({ status: "rejected", rejection, recordCount: count, byteCount: Math.min(bytes, 2 ** 31 - 1) })
    .where(eq(sandboxUploads.id, upload.id));
}

/** Checks the session before reading a byte: uploads after the session closed are refused. */
export async function assertUploadSessionOpen(context: SandboxContext, upload: Upload): Promise<void> {
  const rows = await context.db.execute<{ open: boolean }>(
    sql`select (sync_in_progress and current_session_id = ${upload.sessionId}) as open from sandbox.locations where id = ${upload.locationId}`,
  );
  if (!rows[0]?.open) throw new SandboxError(409, "not_in_sync", "The sync session of this upload address is closed.");
}

export interface UploadEnvironment {
  style: DateTimeStyle;
  responseShape: SandboxResponseShape;
}

/** The date-time form and answer shape of the environment of the upload's location. */
export async function findUploadEnvironment(context: SandboxContext, upload: Upload): Promise<UploadEnvironment> {
  const rows = await context.db.execute<{ style: DateTimeStyle; response_shape: SandboxResponseShape }>(
    sql`select e.date_time_style as style, e.response_shape from sandbox.locations l join sandbox.environments e on e.id = l.environment_id
        where l.id = ${upload.locationId}`,
  );
  return { style: rows[0]?.style ?? "spec", responseShape: rows[0]?.response_shape ?? "documented" };
}
