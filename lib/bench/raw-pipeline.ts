// The baseline of `npm run bench`: the same valid preview records read with a postgres.js cursor, turned
// into JSON and PUT as one streamed array per resource with undici, without the engine's planning,
// validation and bookkeeping. Its time is what the hardware, PostgreSQL and the receiver cost.
import { Readable } from "node:stream";
import { Agent, request } from "undici";
import type postgres from "postgres";
import type { LocationCall, UpstreamClient } from "@/lib/upstream/client";
import type { CalendarRecord, ServiceCategoryRecord, ServiceRecord } from "@/lib/upstream/records";

const CURSOR_ROWS = 1000;
const CHUNK_BYTES = 64 * 1024;

interface RawInput {
  sql: postgres.Sql;
  locationId: string;
  client: UpstreamClient;
  call: LocationCall;
  managementSystem: string;
}

function validRecords(sql: postgres.Sql, locationId: string, recordType: string, service?: string) {
  const byService = service === undefined ? sql`` : sql`and ref_service = ${service}`;
  return sql<{ payload: unknown }[]>`
    select payload from preview_records
    where location_id = ${locationId} and record_type = ${recordType} and status in ('valid', 'warning') ${byService}
    order by seq`.cursor(CURSOR_ROWS);
}

async function* jsonArray(rows: AsyncIterable<{ payload: unknown }[]>, counter: { records: number }): AsyncGenerator<string> {
  let buffer = "[";
  let first = true;
  for await (const batch of rows) {
    for (const row of batch) {
      buffer += (first ? "" : ",") + JSON.stringify(row.payload);
      first = false;
      counter.records += 1;
      if (buffer.length >= CHUNK_BYTES) {
        yield buffer;
        buffer = "";
      }
    }
  }
  yield `${buffer}]`;
}

async function put(dispatcher: Agent, putDataUrl: string, body: AsyncGenerator<string>): Promise<void> {
  const response = await request(putDataUrl, { method: "PUT", dispatcher, headers: { "content-type": "application/json" }, body: Readable.from(body) });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`raw upload answered ${response.statusCode}: ${text.slice(0, 200)}`);
}

async function readAll<T>(sql: postgres.Sql, locationId: string, recordType: string): Promise<T[]> {
  const rows = await sql<{ payload: T }[]>`
    select payload from preview_records where location_id = ${locationId} and record_type = ${recordType} and status in ('valid', 'warning') order by seq`;
  return rows.map((row) => row.payload);
}

/** Sends every valid record of the run; returns how many went through the uploads. */
export async function runRawPipeline({ sql, locationId, client, call, managementSystem }: RawInput): Promise<number> {
  const dispatcher = new Agent();
  const counter = { records: 0 };
  try {
    await client.updateManagementSystem({ ...call, managementSystem, syncInProgress: true });
    await client.syncCalendars({ ...call, records: await readAll<CalendarRecord>(sql, locationId, "calendars") });
    await client.syncServiceCategories({ ...call, records: await readAll<ServiceCategoryRecord>(sql, locationId, "service_categories") });
    await client.syncServices({ ...call, records: await readAll<ServiceRecord>(sql, locationId, "services") });

    await put(dispatcher, await client.requestContactDetailsUpload(call), jsonArray(validRecords(sql, locationId, "contact_details"), counter));

    const [span] = await sql<{ first: string | null; last: string | null }[]>`
      select min(local_date)::text as first, max(local_date)::text as last from preview_records
      where location_id = ${locationId} and record_type = 'appointments' and status in ('valid', 'warning')`;
    if (span?.first && span.last) {
      const putDataUrl = await client.requestAppointmentsUpload({ ...call, startDate: span.first, endDate: span.last });
      await put(dispatcher, putDataUrl, jsonArray(validRecords(sql, locationId, "appointments"), counter));
    }

    const services = await sql<{ service: string; first: string; last: string }[]>`
      select ref_service as service, min(left(payload ->> 'start_at', 10)) as first, max(left(payload ->> 'start_at', 10)) as last from preview_records
      where location_id = ${locationId} and record_type = 'openings' and status in ('valid', 'warning') group by ref_service`;
    for (const { service, first, last } of services) {
      const putDataUrl = await client.requestOpeningsUpload({ ...call, startDate: first, endDate: last, serviceExternalId: service });
      await put(dispatcher, putDataUrl, jsonArray(validRecords(sql, locationId, "openings", service), counter));
    }
    await client.updateManagementSystem({ ...call, managementSystem, syncInProgress: false });
    return counter.records;
  } finally {
    await dispatcher.close();
  }
}
