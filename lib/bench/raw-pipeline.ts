// The baseline of `npm run bench`: the irreducible work of a first sync. The source read with the engine's reader
// (cursor batches, the same read windows as a first sync), each row mapped by the engine's mapping function with the
// location's context, rows without a record skipped, each record JSON.stringify'd and streamed as one PUT per
// resource to the same receiver. No checks (duplicates, references), no planning, no recording.
import { Readable } from "node:stream";
import { Agent, request } from "undici";
import { mapRow, type MappedRowOf } from "@/lib/mapping/map-row";
import type { MappingContext } from "@/lib/mapping/mapping-types";
import { planPreviewReads, type PlannedRead } from "@/lib/preview/preview-plan";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { SourceReader } from "@/lib/source/source-reader";
import type { SourceResource } from "@/lib/source/source-rows";
import { appointmentHorizonEnd, localToday, openingsDateRange } from "@/lib/sync/plan/local-dates";
import { defaultDateTimeStyle } from "@/lib/upstream/formats";
import type { LocationCall, UpstreamClient } from "@/lib/upstream/client";
import type { CalendarRecord, OpeningRecord, ServiceCategoryRecord, ServiceRecord } from "@/lib/upstream/records";

export interface RawInput {
  reader: SourceReader;
  location: { sourceKey: string; timeZone: string; country: string; automotive: boolean };
  /** A client without record validation: nothing is checked. */
  client: UpstreamClient;
  call: LocationCall;
  managementSystem: string;
  /** The local date of the source's earliest appointment: the one appointments upload spans it to 6 months ahead. */
  earliestAppointmentDate: string | null;
  now?: Date;
}

export interface RawResult {
  /** Records sent (calendars, categories and services included). */
  records: number;
  /** Bytes of the streamed uploads. */
  bytes: number;
}

interface Counter {
  records: number;
  bytes: number;
}

/** The records of one batch of source rows, in source order: rows whose mapping yields none are left out. */
function recordsOf<R extends SourceResource>(resource: R, rows: readonly unknown[], context: MappingContext): MappedRowOf[R][] {
  const mapped: MappedRowOf[R][] = [];
  for (const row of rows) {
    const result = mapRow(resource, row as never, context);
    if (result.record !== null) mapped.push(result);
  }
  return mapped;
}

async function readAll<R extends SourceResource>(
  input: RawInput,
  read: PlannedRead & { resource: R },
  context: MappingContext,
): Promise<MappedRowOf[R][]> {
  const all: MappedRowOf[R][] = [];
  const params = { sourceKey: input.location.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
  for await (const batch of input.reader.read(read.resource, params))
    all.push(...phaseClock.time("map", () => recordsOf(read.resource, batch, context)));
  return all;
}

/** One resource as a JSON array, one chunk per source batch, mapped and encoded as the upload pulls it. */
async function* jsonArray(input: RawInput, read: PlannedRead, context: MappingContext, counter: Counter): AsyncGenerator<string> {
  const params = { sourceKey: input.location.sourceKey, windowStart: read.windowStart, windowEnd: read.windowEnd };
  let separator = "";
  yield "[";
  for await (const batch of input.reader.read(read.resource, params)) {
    const mapped = phaseClock.time("map", () => recordsOf(read.resource, batch, context));
    if (!mapped.length) continue;
    const chunk = phaseClock.time("encode", () => separator + mapped.map((row) => JSON.stringify(row.record)).join(","));
    separator = ",";
    counter.records += mapped.length;
    yield chunk;
  }
  yield "]";
}

// The catalogue calls are the API's, which refuses a whole set over one duplicate or unknown reference (the uploads
// are only counted). So the raw pipeline makes these few dozen records acceptable; the records themselves are sent as mapped.
const keyOf = (record: { external_id?: string; id?: string }) => record.external_id ?? record.id;

function firstOfEachKey<T extends { external_id?: string; id?: string }>(records: T[]): T[] {
  const seen = new Set<string | undefined>();
  return records.filter((record) => !seen.has(keyOf(record)) && Boolean(seen.add(keyOf(record))));
}

function withKnownReferences(services: ServiceRecord[], categories: ServiceCategoryRecord[], calendars: CalendarRecord[]): ServiceRecord[] {
  const categoryKeys = new Set(categories.map(keyOf));
  const calendarKeys = new Set(calendars.map(keyOf));
  return services.map((service) => {
    const known = { ...service };
    if (known.service_category_external_id !== undefined && !categoryKeys.has(known.service_category_external_id))
      delete known.service_category_external_id;
    if (known.calendar_external_ids) known.calendar_external_ids = known.calendar_external_ids.filter((id) => calendarKeys.has(id));
    return known;
  });
}

async function put(dispatcher: Agent, putDataUrl: string, body: AsyncIterable<string> | Iterable<string>, counter: Counter): Promise<void> {
  async function* counted() {
    for await (const chunk of body) {
      const bytes = Buffer.from(chunk, "utf8");
      counter.bytes += bytes.length;
      yield bytes;
    }
  }
  await phaseClock.time("send", async () => {
    const response = await request(putDataUrl, {
      method: "PUT",
      dispatcher,
      headers: { "content-type": "application/json" },
      body: Readable.from(counted()),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`raw upload answered ${response.statusCode}: ${text.slice(0, 200)}`);
  });
}

/** Sends every record the mapping yields, one request per resource (openings: per service, as the spec demands). */
export async function runRawPipeline(input: RawInput): Promise<RawResult> {
  const { client, call, managementSystem, location } = input;
  const now = input.now ?? new Date();
  const context: MappingContext = { timeZone: location.timeZone, country: location.country, dateTimeStyle: defaultDateTimeStyle, now };
  const plan = planPreviewReads(location, now);
  const readOf = <R extends SourceResource>(resource: R) =>
    plan.find((read) => read.resource === resource) as (PlannedRead & { resource: R }) | undefined;
  const dispatcher = new Agent();
  const counter: Counter = { records: 0, bytes: 0 };
  const recordsOfAll = async <R extends SourceResource>(resource: R) => (await readAll(input, readOf(resource)!, context)).map((row) => row.record!);
  try {
    await client.updateManagementSystem({ ...call, managementSystem, syncInProgress: true });
    const calendars = firstOfEachKey((await recordsOfAll("staff")) as CalendarRecord[]);
    await client.syncCalendars({ ...call, records: calendars });
    const categories = firstOfEachKey((await recordsOfAll("service_categories")) as ServiceCategoryRecord[]);
    await client.syncServiceCategories({ ...call, records: categories });
    const services = withKnownReferences(firstOfEachKey((await recordsOfAll("services")) as ServiceRecord[]), categories, calendars);
    await client.syncServices({ ...call, records: services });
    counter.records += calendars.length + categories.length + services.length;

    await put(dispatcher, await client.requestContactDetailsUpload(call), jsonArray(input, readOf("customers")!, context, counter), counter);
    const vehicles = readOf("vehicles");
    if (vehicles) await put(dispatcher, await client.requestVehiclesUpload(call), jsonArray(input, vehicles, context, counter), counter);

    const today = localToday(now, location.timeZone);
    const startDate = input.earliestAppointmentDate && input.earliestAppointmentDate < today ? input.earliestAppointmentDate : today;
    const appointmentsUrl = await client.requestAppointmentsUpload({ ...call, startDate, endDate: appointmentHorizonEnd(now, location.timeZone) });
    await put(dispatcher, appointmentsUrl, jsonArray(input, readOf("appointments")!, context, counter), counter);

    // One request per service: the 72 hours of openings are read once and kept as JSON text by service.
    const byService = new Map<string, string[]>();
    for (const row of await readAll(input, readOf("availability")!, context)) {
      if (row.serviceExternalId === null) continue;
      const json = phaseClock.time("encode", () => JSON.stringify(row.record as OpeningRecord));
      const list = byService.get(row.serviceExternalId);
      if (list) list.push(json);
      else byService.set(row.serviceExternalId, [json]);
    }
    const range = openingsDateRange(now, location.timeZone);
    // Only services the upstream now holds: it refuses an openings request for any other.
    const sentServices = new Set(services.map(keyOf));
    for (const [service, openings] of byService) {
      if (!sentServices.has(service)) continue;
      counter.records += openings.length;
      const putDataUrl = await client.requestOpeningsUpload({ ...call, ...range, serviceExternalId: service });
      await put(dispatcher, putDataUrl, [`[${openings.join(",")}]`], counter);
    }
    await client.updateManagementSystem({ ...call, managementSystem, syncInProgress: false });
    return counter;
  } finally {
    await dispatcher.close();
  }
}
