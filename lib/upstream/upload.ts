import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { z } from "zod";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { UpstreamUploadAddressError, UpstreamUploadError, type UpstreamErrorDetail } from "./errors";
import { isLoopbackHost } from "./loopback-host";

/**
 * A record as its JSON, already made (for the hash it is recorded under): an upload sends it as it is, or, with a
 * schema, parses it back to check it. Held instead of the record object, it costs a streamed part a third of the memory.
 */
export class EncodedRecord {
  constructor(readonly json: string) {}
}

/**
 * Several records in one item of an upload's source: an async source that yields a batch costs one await per batch
 * instead of one per record (a million appointments: ~a million promises fewer).
 */
export class RecordBatch<T> {
  constructor(readonly items: readonly (T | EncodedRecord)[]) {}
}

type SourceItem<T> = T | EncodedRecord | RecordBatch<T>;
/** Records for an upload: an iterable, or a function that opens one (needed to retry with a fresh address). */
export type RecordSource<T> = AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>> | (() => AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>>);

const defaultPorts: Record<string, string> = { "https:": "443", "http:": "80" };

function hostMatches(url: URL, entry: string): boolean {
  const allowed = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
  if (!allowed) return false;
  const [, host, port] = allowed as unknown as [string, string, string | undefined];
  // "host:port" pins the port, compared with the effective one (URL drops the scheme's default: ":443" of https);
  // "*.example.com" admits subdomains (e.g. a bucket host of a storage service).
  if (port !== undefined && Number(port) !== Number(url.port || defaultPorts[url.protocol])) return false;
  if (host.startsWith("*.")) return url.hostname.endsWith(host.slice(1)) && url.hostname.length > host.length - 1;
  return url.hostname === host;
}

/**
 * The upload address as a URL, when we may send records to it: https (http on loopback only), no user info,
 * and a host in the environment's allow-list. Otherwise throws (an UpstreamUploadAddressError) before anything is sent.
 */
export function checkUploadAddress(address: string, uploadHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UpstreamUploadAddressError("The upload address (put_data_url) is not a valid URL; nothing was sent.");
  }
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new UpstreamUploadAddressError(`The upload address ${shown} must use https (plain http only on loopback); nothing was sent.`);
  }
  if (url.username || url.password) {
    throw new UpstreamUploadAddressError(`The upload address ${shown} carries user credentials; nothing was sent.`);
  }
  if (!uploadHosts.some((entry) => hostMatches(url, entry))) {
    throw new UpstreamUploadAddressError(
      `The upload address host ${url.host} is not one of this environment's upload hosts (Settings → Environments); nothing was sent.`,
    );
  }
  return url;
}

function openSource<T>(source: RecordSource<T>): AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>> {
  return typeof source === "function" ? source() : source;
}

/** False for a one-shot iterator (a generator object): a retry could not read its records again. */
export function canReopen(source: RecordSource<unknown>): boolean {
  if (typeof source === "function") return true;
  const asIterator = source as { next?: unknown; pipe?: unknown; [Symbol.asyncIterator]?: () => unknown; [Symbol.iterator]?: () => unknown };
  if (typeof asIterator.pipe === "function") return false; // a stream is read once
  if (typeof asIterator.next !== "function") return true;
  const opened = asIterator[Symbol.asyncIterator]?.() ?? asIterator[Symbol.iterator]?.();
  return opened !== source;
}

export interface UploadProgress {
  records: number;
  bytes: number;
  /** SHA-256 (hex) of the whole body as sent, once it was sent to its end; null before. */
  sha256: string | null;
}

const chunkBytes = 256 * 1024;

/**
 * The records as one JSON array, produced lazily in ~256 KiB chunks (fewer socket writes than 64 KiB ones): only the
 * chunk in flight is held in memory. With a schema, each record is checked first; an invalid one stops the stream with
 * its position.
 */
export function streamJsonArray<T>(source: RecordSource<T>, schema: z.ZodType | undefined, progress: UploadProgress): Readable {
  const hash = createHash("sha256");
  let pending: string[] = ["["];
  let pendingLength = 1;
  let index = 0;
  const takeChunk = () => {
    const chunk = Buffer.from(pending.join(""), "utf8");
    progress.bytes += chunk.length;
    hash.update(chunk);
    pending = [];
    pendingLength = 0;
    return chunk;
  };
  /** Adds one record; a chunk once enough is pending. */
  const add = (item: T | EncodedRecord): Buffer | null => {
    let encoded = item instanceof EncodedRecord ? item.json : null;
    if (schema) {
      const parsed = schema.safeParse(encoded === null ? item : JSON.parse(encoded));
      if (!parsed.success) throw invalidRecordError(index, parsed.error.issues);
      // What the schema passed is sent: it may have changed the record.
      encoded = phaseClock.time("encode", () => JSON.stringify(parsed.data));
    } else if (encoded === null) encoded = phaseClock.time("encode", () => JSON.stringify(item));
    const json = (index === 0 ? "" : ",") + encoded;
    pending.push(json);
    pendingLength += json.length;
    index += 1;
    progress.records = index;
    return pendingLength >= chunkBytes ? takeChunk() : null;
  };
  function* chunksOf(entry: SourceItem<T>): Generator<Buffer> {
    if (!(entry instanceof RecordBatch)) {
      const chunk = add(entry);
      if (chunk) yield chunk;
      return;
    }
    for (const item of entry.items) {
      const chunk = add(item);
      if (chunk) yield chunk;
    }
  }
  async function* generate(): AsyncGenerator<Buffer> {
    progress.sha256 = null;
    const opened = openSource(source);
    // A list is read without an await per record.
    if (Symbol.asyncIterator in opened) for await (const entry of opened) yield* chunksOf(entry);
    else for (const entry of opened) yield* chunksOf(entry);
    pending.push("]");
    const chunk = takeChunk();
    progress.sha256 = hash.digest("hex");
    yield chunk;
  }
  return Readable.from(generate(), { objectMode: false });
}

function invalidRecordError(index: number, issues: readonly z.core.$ZodIssue[]): UpstreamUploadError {
  const details: UpstreamErrorDetail[] = issues.slice(0, 10).map((issue) => ({
    index,
    ...(issue.path.length ? { field: issue.path.map(String).join(".") } : {}),
    // The message only, never the value: records hold personal data.
    reason: issue.message,
  }));
  const first = details[0];
  return new UpstreamUploadError(
    `Record ${index} does not match the upstream record schema${first ? ` (${first.field ?? "record"}: ${first.reason})` : ""}; the upload was aborted.`,
    { details },
  );
}
