import { createHash } from "node:crypto";
import postgres from "postgres";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import { getConfig } from "@/lib/config/config";
import { trimmedIdSql } from "@/db/trimmed-id";
import { compareColumns } from "./source-columns";
import { defaultSqlDirectory, loadSourceQuery, parameterValues, SourceQueryError, type SourceQuery, type SourceQueryName } from "./source-queries";
import type { SourceIdCount, SourceReadParams, SourceReader, SourceRowFilter } from "./source-reader";
import { sourceResources, type SourceResource, type SourceRowOf } from "./source-rows";

export interface SqlSourceReaderOptions {
  /** The management system's PostgreSQL. */
  url: string;
  /** Folder of the resource .sql files; default lib/source/sql. */
  sqlDirectory?: string;
  /** Connections to the source at most (default 2: a reader streams one resource at a time). */
  maxConnections?: number;
  /** Longest one statement may run on the source before it stops it (SOURCE_STATEMENT_TIMEOUT_SECONDS); default none. */
  statementTimeoutSeconds?: number;
  /** Called once the reader has seen one of its connections close (postgres.js's `onclose`). */
  onConnectionClosed?: () => void;
}

export const defaultBatchSize = 2000;

/** Reads a location's source through SQL files, each read in a read-only transaction, streamed with a cursor. */
export function createSqlSourceReader(options: SqlSourceReaderOptions): SourceReader {
  const timeout = options.statementTimeoutSeconds;
  const connectionOptions = { application_name: "location-sync-source", ...(timeout ? { statement_timeout: timeout * 1000 } : {}) };
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 2,
    onnotice: () => {},
    onclose: () => options.onConnectionClosed?.(),
    // Set for the source's connections as they open: a FETCH of a cursor is a statement too.
    connection: connectionOptions,
  });
  const directory = options.sqlDirectory ?? defaultSqlDirectory();
  const loaded = new Map<SourceQueryName, Promise<SourceQuery>>();
  const queryOf = (name: SourceQueryName) => {
    let query = loaded.get(name);
    if (!query) {
      query = loadSourceQuery(directory, name);
      // A failed load is not kept: fixing the file is enough, no restart needed.
      query.catch(() => loaded.delete(name));
      loaded.set(name, query);
    }
    return query;
  };
  // The source's server encoding, once known: the trimmed id's SQL (trimmedIdSql) is for a UTF-8 server.
  let knownEncoding: string | undefined;

  const readerWith = (signal: AbortSignal | undefined, snapshot?: string): SourceReader => {
    /** One statement over the file's rows without its ORDER BY (`select … from ${rows}`, the rows named source_rows). */
    const aggregate = async (resource: SourceResource, params: SourceReadParams, statement: (rows: string) => string) => {
      const query = await queryOf(resource);
      return withQueryErrors(query, () =>
        readOnce(sql, beginOf(snapshot), signal, statement(`(${bareUnordered(query)}) as source_rows`), parameterValues(query, params)),
      );
    };
    const encoding = async () => {
      knownEncoding ??= String(
        (await readOnce(sql, beginOf(snapshot), signal, "select current_setting('server_encoding') as encoding", []))[0]?.encoding,
      );
      return knownEncoding;
    };
    // Elsewhere an id's characters are not the ones our UTF-8 database counts (SQL_ASCII's are bytes): ends that
    // differ between the two sides could hide a deleted row.
    const assertIdEnds = async () => {
      const found = await encoding();
      if (found !== "UTF8") throw new Error(`ids are counted by their end only on a UTF8 source, not ${found}`);
    };
    return {
      read<R extends SourceResource>(
        resource: R,
        params: SourceReadParams,
        readOptions?: { batchSize?: number; filter?: SourceRowFilter },
      ): AsyncIterable<SourceRowOf[R][]> {
        const batchSize = checkedBatchSize(readOptions?.batchSize);
        const filter = readOptions?.filter;
        return (async function* () {
          const utf8 = filter?.ids === undefined || (await encoding()) === "UTF8";
          const batches = readBatches<SourceRowOf[R]>(
            sql,
            beginOf(snapshot),
            signal,
            resource,
            queryOf(resource),
            params,
            batchSize,
            (query, values) => filtered(query, values, filter, utf8),
          );
          if (utf8) return yield* batches;
          const ids = new Set(filter!.ids);
          for await (const batch of batches) {
            const kept = batch.filter((row) => {
              const fields = row as unknown as Record<string, unknown>;
              const exact = fields[exactMatch];
              delete fields[exactMatch];
              return exact === true || ids.has(fields.id === null || fields.id === undefined ? "" : String(fields.id).trim());
            });
            if (kept.length) yield kept;
          }
        })();
      },

      async count(resource, params) {
        const rows = await aggregate(resource, params, (rows) => `select count(*)::int as count from ${rows}`);
        return Number(rows[0]?.count ?? 0);
      },

      async countByDay(resource, params) {
        const rows = await aggregate(
          resource,
          params,
          (rows) => `select coalesce(left(btrim(source_rows.starts_at::text), 10), '') as day, count(*)::int as rows from ${rows} group by 1`,
        );
        return new Map(rows.map((row) => [String(row.day), Number(row.rows)]));
      },

      async *readIds(resource, params, readOptions) {
        const batchSize = checkedBatchSize(readOptions?.batchSize);
        const idEnds = readOptions?.idEnds;
        if (idEnds) await assertIdEnds();
        yield* readBatches<SourceIdCount>(sql, beginOf(snapshot), signal, resource, queryOf(resource), params, batchSize, (query, values) => ({
          text: `select source_rows.id::text as id, count(*)::int as rows from (${bareUnordered(query)}) as source_rows
               where source_rows.id is not null${idEnds ? ` and ${idEndSql("source_rows.id::text")} = any($${values.length + 1}::text[])` : ""}
               group by source_rows.id::text order by source_rows.id::text collate "C"`,
          values: idEnds ? [...values, [...idEnds]] : values,
        }));
      },

      async countByIdEnd(resource, params) {
        await assertIdEnds();
        const rows = await aggregate(
          resource,
          params,
          (rows) => `select ${idEndSql("source_rows.id::text")} as id_end, count(*)::int as rows from ${rows} group by 1`,
        );
        return new Map(rows.map((row) => [String(row.id_end), Number(row.rows)]));
      },

      async earliestStart(resource, params) {
        const rows = await aggregate(resource, params, (rows) => `select min(source_rows.starts_at)::text as earliest from ${rows}`);
        return (rows[0]?.earliest as string | null | undefined) ?? null;
      },

      async repeatedIds(resource, params) {
        // \s in a PostgreSQL regular expression is the white space of JavaScript's \s and more: a superset of what trim() removes.
        const rows = await aggregate(
          resource,
          params,
          (rows) =>
            `select regexp_replace(source_rows.id::text, '[\\s\\u00a0\\ufeff\\u1680\\u180e\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]', '', 'g') as id
             from ${rows} where source_rows.id is not null group by 1 having count(*) > 1`,
        );
        return new Set(rows.map((row) => String(row.id)));
      },

      async querySignature() {
        const queries = await Promise.all(sourceResources.map((resource) => queryOf(resource)));
        return createHash("sha256")
          .update(queries.map((query) => query.text).join("\u0000"))
          .digest("hex");
      },

      async clock() {
        const [row] = await readOnce(sql, beginOf(snapshot), signal, "select clock_timestamp() as now", []);
        return row!.now as Date;
      },

      async fingerprint(sourceKey: string): Promise<string> {
        const query = await queryOf("fingerprint");
        const rows = await withQueryErrors(query, () => readOnce(sql, beginOf(snapshot), signal, query.text, parameterValues(query, { sourceKey })));
        const fingerprint: unknown = rows[0]?.fingerprint;
        if (typeof fingerprint !== "string") throw new SourceQueryError(`${query.file}: must return one row with a text column "fingerprint"`);
        return fingerprint;
      },

      stoppedBy: (next) => readerWith(next, snapshot),
      async snapshot() {
        // A connection of its own, outside the pool: it holds the exporting transaction for as long as the session reads.
        const holder = postgres(options.url, {
          max: 1,
          onnotice: () => {},
          connection: { ...connectionOptions, application_name: "location-sync-snapshot" },
        });
        try {
          const reserved = await holder.reserve();
          await reserved.unsafe("begin isolation level repeatable read read only");
          const [row] = await reserved.unsafe("select pg_export_snapshot() as id");
          const id = String(row?.id ?? "");
          if (!/^[0-9A-Fa-f-]+$/.test(id)) throw new Error("the source exported no usable snapshot");
          return {
            reader: readerWith(signal, id),
            // Closing the connection ends the transaction: nothing is awaited of a source that may no longer answer.
            release: async () => {
              reserved.release();
              await holder.end({ timeout: 5 });
            },
          };
        } catch (error) {
          await holder.end({ timeout: 5 }).catch(() => {});
          throw error;
        }
      },
      close: () => sql.end({ timeout: 5 }),
    };
  };
  return readerWith(undefined);
}

/** idEndOf in SQL, of a text expression (null: ""). */
const idEndSql = (id: string) => `right(${trimmedIdSql(id)}, 2)`;

/** How a read's transaction begins: read-only, and inside the session's snapshot when it has one (the id is checked). */
function beginOf(snapshot: string | undefined): string[] {
  return snapshot ? ["begin isolation level repeatable read read only", `set transaction snapshot '${snapshot}'`] : ["begin read only"];
}

function checkedBatchSize(batchSize = defaultBatchSize): number {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number of at least 1, got ${batchSize}`);
  return batchSize;
}

/** The file's query as a subquery: without a trailing semicolon, on its own lines (it may end in a comment). */
const bare = (query: SourceQuery) => asSubquery(query.text);
/** The same for what counts or groups the rows: without the order the file gives them. */
const bareUnordered = (query: SourceQuery) => asSubquery(query.unorderedText);
const asSubquery = (text: string) => `\n${text.trim().replace(/;\s*$/, "")}\n`;

type Statement = { text: string; values: (string | null | string[])[] };

/** The column a read by id on a source that is not UTF-8 marks its exact matches with (taken off before the rows are yielded). */
const exactMatch = "location_sync_exact_match";

/**
 * The file's query, narrowed by a filter around it (PostgreSQL pushes the condition down into the query). `utf8`: the
 * source trims ids as the mapping does (trimmedIdSql); elsewhere every row whose id may differ once trimmed is read
 * too, marked apart from the exact matches, and the reader keeps those whose id trim() names. Exported for its plan's test.
 */
export function filtered(query: SourceQuery, values: (string | null)[], filter: SourceRowFilter | undefined, utf8: boolean): Statement {
  if (!filter || (filter.changedSince === undefined && filter.ids === undefined)) return { text: query.text, values };
  const conditions: string[] = [];
  const extra: (string | string[])[] = [];
  if (filter.changedSince !== undefined) {
    extra.push(filter.changedSince.toISOString());
    conditions.push(`source_rows.updated_at is null or source_rows.updated_at > $${values.length + extra.length}::timestamptz`);
  }
  let trimmed: string | undefined;
  if (filter.ids !== undefined) {
    extra.push([...filter.ids]);
    // Also by the trimmed id: the mapping trims ids, and a record is replaced by the rows its trimmed id names.
    const ids = `$${values.length + extra.length}::text[]`;
    conditions.push(`source_rows.id::text = any(${ids})`);
    // Elsewhere: a null id, or one that does not begin and end with a printable ASCII character.
    trimmed = utf8
      ? `${trimmedIdSql("source_rows.id::text")} = any(${ids})`
      : `source_rows.id is null or source_rows.id::text !~ '^[!-~](.*[!-~])?$'`;
  }
  const either = (list: string[]) => list.map((condition) => `(${condition})`).join(" or ");
  const marked = utf8 || !trimmed ? "" : `, (${either(conditions)}) as ${exactMatch}`;
  return {
    text: `select source_rows.*${marked} from (${bare(query)}) as source_rows where ${either(trimmed ? [...conditions, trimmed] : conditions)}`,
    values: [...values, ...extra],
  };
}

/** Passes a statement through on its way to the source, as the one a stop would cancel. */
type Track = <Q extends Cancellable>(statement: Q) => Q;
/**
 * A postgres.js query. Its `cancel()` drops the promise of the cancel request (a refused connection for it would be
 * an unhandled rejection, the worker down) and returns null: the reader calls the query's `canceller` itself to keep
 * that promise (postgres.js 3.4.9, src/query.js).
 */
type Cancellable = { cancel(): unknown; canceller?: ((query: unknown) => Promise<unknown>) | null };

/** Sends the cancel request for `statement`; settles once the source has it (or it could not be sent). */
function cancelOnSource(statement: Cancellable): Promise<unknown> {
  const canceller = statement.canceller;
  if (typeof canceller !== "function") return Promise.resolve(statement.cancel()).catch(() => {});
  statement.canceller = null;
  return Promise.resolve(canceller(statement)).catch(() => {});
}

/**
 * Keeps the statement in flight of one read, and cancels it on the source when `signal` aborts (PostgreSQL's cancel
 * request: the source stops working on it, where closing the connection would leave it running). The read ends with
 * the signal's reason at once (`race`), without waiting for the source to answer: a source that can no longer be
 * reached (the network lost) would hold it until TCP keepalive gave up.
 */
function stopWatch(signal: AbortSignal | undefined) {
  let current: Cancellable | undefined;
  // Whether a statement is running on the source now. Once a read's next batch has arrived and it is held at a yield, the
  // source is idle: a cancel request sent then would stop the next statement on the connection instead, its ROLLBACK or
  // another read's.
  let running = false;
  let cancelled: Promise<unknown> = Promise.resolve();
  let inFlight: Promise<unknown> = Promise.resolve();
  let lost = false;
  let session: { state: postgres.State; pid: number } | undefined;
  // postgres.js 3.4.9 opens a connection that closed again for whichever reader asks next, while a read waiting between
  // batches may still hold it: its next statement would run in that reader's session. The backend's pid, which
  // postgres.js updates in place when it opens the connection again, tells.
  const reopened = () => session !== undefined && session.state.pid !== session.pid;
  // Only a statement's own failure says what became of its connection.
  const noteLoss = (error: unknown) => {
    if (isConnectionLoss(error)) lost = true;
  };
  const cancel = () => {
    if (current && running) cancelled = cancelOnSource(current);
  };
  signal?.addEventListener("abort", cancel, { once: true });
  // A postgres.js query runs only once awaited: one refused here never reaches the source.
  const track: Track = (statement) => {
    if (reopened()) {
      lost = true;
      throw connectionReopened();
    }
    current = statement;
    return statement;
  };
  return {
    track,
    check: () => signal?.throwIfAborted(),
    /** Notes the source session the read's transaction began in (the answer to its BEGIN). */
    begun: (answer: { state: postgres.State }) => void (session = { state: answer.state, pid: answer.state.pid }),
    /** `work`, or the signal's reason as soon as it aborts (what `work` still does then is not waited for). */
    race: <T>(work: Promise<T>): Promise<T> => {
      running = true;
      // Not the value: a batch's rows are not kept once read.
      inFlight = work.then(
        () => void (running = false),
        (error: unknown) => {
          running = false;
          noteLoss(error);
        },
      );
      if (signal?.aborted) cancel();
      if (!signal) return work;
      // A listener per statement, removed when it ends: Promise.race with one promise that stays pending would keep
      // every batch a read returned (its reactions hold them) until the read ends — a month, or all the contacts.
      return new Promise<T>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        if (signal.aborted) return stop();
        signal.addEventListener("abort", stop, { once: true });
        work.then(
          (value) => {
            signal.removeEventListener("abort", stop);
            resolve(value);
          },
          (error: unknown) => {
            signal.removeEventListener("abort", stop);
            reject(error);
          },
        );
      });
    },
    stop: (error: unknown) => (signal?.aborted ? signal.reason : error),
    /** The statement last raced has ended (a stopped read's keeps running until the source answers or the link drops). */
    settled: () => inFlight,
    /** A statement failed because its connection was lost, or the connection was opened again since the read began. */
    get lost() {
      return lost || reopened();
    },
    /** Once the source has the cancel request: it then cannot stop the next statement on the connection instead. */
    delivered: () => cancelled,
    get aborted() {
      return signal?.aborted ?? false;
    },
    end: () => signal?.removeEventListener("abort", cancel),
  };
}

type StopWatch = ReturnType<typeof stopWatch>;

/**
 * One statement in a read-only transaction of its own, on a connection reserved for it (not `sql.begin`, which after
 * a lost connection writes its ROLLBACK to the closed socket: an uncaught TypeError in postgres.js 3.4.9, the worker
 * down). Cancelled on the source if `signal` aborts meanwhile, and ended as a read is (`endRead`).
 */
async function readOnce(
  sql: postgres.Sql,
  begin: readonly string[],
  signal: AbortSignal | undefined,
  text: string,
  values: unknown[],
): Promise<postgres.Row[]> {
  const watch = stopWatch(signal);
  let reserving: Promise<postgres.ReservedSql> | undefined;
  let connection: postgres.ReservedSql | undefined;
  try {
    watch.check();
    reserving = sql.reserve();
    connection = await watch.race(reserving);
    const reserved = connection;
    watch.begun(await watch.race(watch.track(reserved.unsafe(begin[0]!))));
    for (const statement of begin.slice(1)) await watch.race(watch.track(reserved.unsafe(statement)));
    return [...(await watch.race(watch.track(reserved.unsafe(text, values as never[]))))];
  } catch (error) {
    throw watch.stop(error);
  } finally {
    await finishRead(watch, reserving, connection);
  }
}

let cursorsDeclared = 0;

async function* readBatches<Row>(
  sql: postgres.Sql,
  begin: readonly string[],
  signal: AbortSignal | undefined,
  resource: SourceResource,
  pendingQuery: Promise<SourceQuery>,
  params: SourceReadParams,
  batchSize: number,
  statementOf: (query: SourceQuery, values: (string | null)[]) => Statement = (query, values) => ({ text: query.text, values }),
): AsyncGenerator<Row[]> {
  const watch = stopWatch(signal);
  let reserving: Promise<postgres.ReservedSql> | undefined;
  let connection: postgres.ReservedSql | undefined;
  try {
    watch.check();
    const query = await pendingQuery;
    const values = parameterValues(query, params);
    reserving = sql.reserve();
    connection = await watch.race(reserving);
    const reserved = connection;
    watch.begun(await watch.race(watch.track(reserved.unsafe(begin[0]!))));
    for (const statement of begin.slice(1)) await watch.race(watch.track(reserved.unsafe(statement)));
    // Once per loaded file: a session reads appointments month by month with the same query.
    if (!checkedQueries.has(query)) {
      const described = await watch.race(withQueryErrors(query, () => watch.track(reserved.unsafe(query.text, values)).describe()));
      assertContractColumns(
        query,
        resource,
        described.columns.map((column) => column.name),
      );
      checkedQueries.add(query);
    }
    const statement = statementOf(query, values);
    // A cursor of the source's own (DECLARE, then one FETCH per batch), not the protocol's: each FETCH is a statement
    // of its own, so SOURCE_STATEMENT_TIMEOUT_SECONDS limits one batch, not the whole read, which lasts as long as the
    // uploads it feeds (all the contacts of a location, dealt into parts).
    // Planned for every row, as the read takes them all: a cursor is planned by default for its first 10%
    // (cursor_tuple_fraction), which made the first sync's month reads a quarter slower.
    await watch.race(watch.track(reserved.unsafe("set local cursor_tuple_fraction = 1")));
    // A name of its own: a statement that still reached another read's session could not read that read's rows.
    const cursor = `source_rows_${++cursorsDeclared}`;
    await watch.race(
      withQueryErrors(query, () =>
        watch.track(reserved.unsafe(`declare ${cursor} no scroll cursor for ${asSubquery(statement.text)}`, statement.values as never[])),
      ),
    );
    const fetchBatch = () =>
      watch.race(phaseClock.time("read", () => withQueryErrors(query, () => watch.track(reserved.unsafe(`fetch ${batchSize} from ${cursor}`)))));
    // The next batch is fetched while the consumer works on this one (maps it, uploads it): the source's work and the
    // round trip overlap the consumer's instead of following it. Two batches at most are held.
    let fetching = fetchBatch();
    while (true) {
      watch.check();
      const batch = await fetching;
      if (!batch.length) break;
      const more = batch.length === batchSize;
      if (more) {
        fetching = fetchBatch();
        // Awaited by the next turn of the loop, or (the consumer stopped) by finishRead through watch.settled().
        fetching.catch(() => {});
      }
      // The columns are the contract's (checked above); their values are the mapping's to judge.
      yield [...batch] as unknown as Row[];
      if (!more) break;
    }
  } catch (error) {
    throw watch.stop(error);
  } finally {
    await finishRead(watch, reserving, connection);
  }
}

/** After a read, stopped or not: its connection is ended and given back, in the background once the read was stopped. */
async function finishRead(
  watch: StopWatch,
  reserving: Promise<postgres.ReservedSql> | undefined,
  connection: postgres.ReservedSql | undefined,
): Promise<void> {
  watch.end();
  // Stopped while waiting for a connection: it goes back to the pool when it comes.
  if (reserving && !connection)
    reserving.then(
      (late) => late.release(),
      () => {},
    );
  const ending = endRead(connection, watch);
  ending.catch(() => {});
  // Stopped, now or while ending: the source may no longer answer; the connection is given back once it does (or the
  // pool ends), without the caller waiting for it.
  if (!watch.aborted) await watch.race(ending).catch((error: unknown) => (watch.aborted ? undefined : Promise.reject(error)));
}

/**
 * Ends one read: its read-only transaction (and with it the cursor), and gives the connection back. A connection that was lost
 * is left alone: postgres.js would write to its closed socket (an uncaught TypeError, the worker down) or hand a
 * reserved connection that closed to the next reader.
 */
async function endRead(connection: postgres.ReservedSql | undefined, watch: StopWatch): Promise<void> {
  if (!connection) return;
  await watch.settled();
  if (watch.lost) return;
  await watch.delivered();
  // Read-only: rolling back and committing are the same, and rollback also ends an aborted transaction. Given back
  // only once rolled back: the next reader must not begin inside this transaction. Tried twice, for a cancel request
  // that arrived late and stopped the first.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (watch.lost) return;
    const rolledBack = await connection.unsafe("rollback").then(
      () => true,
      (error: unknown) => (isConnectionLoss(error) ? null : false),
    );
    if (rolledBack === null) return;
    if (rolledBack) return connection.release();
  }
}

/**
 * The statement's connection is gone: postgres.js's errors for one that closed, was destroyed, ended or never
 * connected; the socket's own (`ECONNRESET`: a terminated backend's close arrives as a reset on Linux); and the
 * source's FATAL errors, after which it closes it (an administrator, a shutdown, a failover). Any other failure leaves
 * the connection to be rolled back and given back.
 */
function isConnectionLoss(error: unknown): boolean {
  const cause = error instanceof SourceQueryError && error.cause !== undefined ? error.cause : error;
  const { code, syscall, severity } = (cause ?? {}) as { code?: unknown; syscall?: unknown; severity?: unknown };
  return (typeof code === "string" && /^CONNECT(ION)?_/.test(code)) || typeof syscall === "string" || severity === "FATAL" || severity === "PANIC";
}

/** Queries whose columns were found to meet the contract (a loaded file does not change). */
const checkedQueries = new WeakSet<SourceQuery>();

function assertContractColumns(query: SourceQuery, resource: SourceResource, columns: string[]) {
  const { missing, extra } = compareColumns(resource, columns);
  if (!missing.length && !extra.length) return;
  const problems = [missing.length ? `missing ${missing.join(", ")}` : null, extra.length ? `extra ${extra.join(", ")}` : null]
    .filter(Boolean)
    .join("; ");
  throw new SourceQueryError(`${query.file}: the columns differ from the ${resource} contract (lib/source/source-rows.ts): ${problems}`);
}

/** A read's connection was opened again (for another reader): its transaction and cursor are gone, a connection loss. */
function connectionReopened(): Error {
  return Object.assign(new Error("the source connection was lost between two statements of a read"), { code: "CONNECTION_CLOSED" });
}

/** PostgreSQL's code for a statement it stopped (query_canceled): at the statement timeout, or by its administrator. */
const statementStopped = "57014";

/** Names the file in a database error, so an engineer knows which query to fix. */
async function withQueryErrors<T>(query: SourceQuery, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof postgres.PostgresError)) throw error;
    const message =
      error.code === statementStopped
        ? `${error.message} (SOURCE_STATEMENT_TIMEOUT_SECONDS limits how long one statement may run on the source)`
        : error.message;
    throw new SourceQueryError(`${query.file}: ${message}`, { cause: error });
  }
}

/** The reader of the configured source: SOURCE_DATABASE_URL, else the app's own database (the demo_source schema). */
export function sourceReaderFromEnvironment(): SourceReader {
  const config = getConfig();
  const url = config.SOURCE_DATABASE_URL ?? config.DATABASE_URL;
  if (!url) throw new Error("Neither SOURCE_DATABASE_URL nor DATABASE_URL is set: no source to read.");
  return createSqlSourceReader({ url, sqlDirectory: config.SOURCE_SQL_DIRECTORY, statementTimeoutSeconds: config.SOURCE_STATEMENT_TIMEOUT_SECONDS });
}
