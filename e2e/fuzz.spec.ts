import type { APIRequestContext } from "@playwright/test";
import fc from "fast-check";
import type { Role } from "../lib/auth/roles";
import { apiAs } from "./support/api";
import { connectToAppDatabase } from "./support/database";
import { roles } from "./support/roles";
import { concretePath, discoverRoutes } from "./support/routes";
import { expect, test } from "./support/test";

/**
 * Throws arbitrary strings (NUL, lone surrogates, control, bidi and zero-width characters,
 * 100k characters) and arbitrary JSON at every route handler and method, as every role and
 * signed out: no answer may be a 5xx, and a 4xx answer must leave the database as it was.
 * Runs are bounded and seeded: a failure names its seed (FUZZ_SEED=<seed> reruns it).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 14_2026);
/** Node's default --max-http-header-size (16 KiB). */
const MAX_HEADER_BYTES = 16 * 1024;
const RUNS_PER_CALL = Number(process.env.FUZZ_RUNS ?? 6);

const hostileCharacters = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\u001b[2J",
  "\u001b]0;x\u0007",
  "\u007f",
  "\u009b",
  "\u202e",
  "\u2066",
  "\u200b",
  "\ufeff",
  "\u2028",
  "\r\n",
  "\t",
  "%00",
  "\\u0000",
  "'",
  '"',
  "\\",
  "%",
  "_",
  "😀",
  "é",
];
const plausible = [
  "staging",
  "production",
  "Europe/Berlin",
  "DE",
  "10:00",
  "admin",
  "support",
  "owner",
  "calendars",
  "failed",
  "2024-01-01",
  "owner@demo.test",
  "00000000-0000-4000-8000-000000000000",
];

/** Strings an attacker would try: hostile characters inside ordinary or plausible text, random Unicode (lone surrogates included), and 100k characters. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...plausible, "", "a"), fc.constantFrom(...hostileCharacters), fc.string({ maxLength: 8 }))
      .map(([a, b, c]) => `${a}${b}${c}`),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  // Any UTF-16 code unit: control characters and lone surrogates included.
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...plausible) },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(100_000), "\u0000".repeat(100_000), "\u202e".repeat(100_000)) },
);

// Field names the app's inputs use: an object of them reaches further into the schemas than random keys do.
const bodyKeys = [
  "name",
  "timeZone",
  "country",
  "environment",
  "upstreamLocationId",
  "sourceKey",
  "automotive",
  "syncTime",
  "email",
  "password",
  "passwordConfirmation",
  "role",
  "active",
  "reason",
  "paused",
  "full",
  "optionalSteps",
  "rebuild",
  "webhookUrl",
  "recipients",
  "baseUrl",
  "uploadHosts",
  "clientId",
  "dataSourceName",
  "apiKey",
  "clientSecret",
  "steps",
  "from",
  "to",
  "confirmName",
  "csv",
  "dryRun",
  "currentPassword",
];
const queryKeys = [
  "q",
  "after",
  "before",
  "limit",
  "status",
  "trigger",
  "environment",
  "type",
  "sort",
  "page",
  "record",
  "action",
  "actor",
  "from",
  "to",
  "ended",
  "created",
  "cause",
];

const jsonBody: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.dictionary(
      fc.constantFrom(...bodyKeys),
      fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 }), fc.array(hostileString, { maxLength: 3 })),
      { maxKeys: 6 },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
);

interface FuzzInput {
  params: Record<string, string>;
  query: [string, string][];
  body: unknown;
}

function inputFor(paramNames: string[]): fc.Arbitrary<FuzzInput> {
  return fc.record({
    // Mostly the sample ids (which name nothing), so a valid body can change nothing that other specs rely on.
    params: fc.record(
      Object.fromEntries(
        paramNames.map((name) => [
          name,
          fc.oneof({ weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constant(concretePath(`[${name}]`)) }),
        ]),
      ),
    ),
    query: fc.array(fc.tuple(fc.constantFrom(...queryKeys), hostileString), { maxLength: 3 }),
    body: jsonBody,
  });
}

/** Percent-encodes every UTF-16 code unit as UTF-8, lone surrogates included (as WTF-8): what a raw client can send. */
function percentEncode(text: string): string {
  let encoded = "";
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      encoded += encodeURIComponent(text.slice(index, index + 2));
      index += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join("");
    } else {
      encoded += encodeURIComponent(text[index]!);
    }
  }
  return encoded;
}

function urlOf(pattern: string, input: FuzzInput): string {
  const path = pattern.replace(/\[\.{0,3}([^\]]+)\]/g, (_, name: string) => percentEncode(input.params[name] ?? ""));
  const query = input.query.map(([key, value]) => `${key}=${percentEncode(value)}`).join("&");
  return query ? `${path}?${query}` : path;
}

/**
 * Per table: row count and the newest row version's transaction id (any insert or update makes
 * a newer one; a delete lowers the count). Not compared, because a refused request may write them on purpose:
 * audit_log (failed sign-ins and connects are audited), rate_limit_buckets (refused attempts are counted),
 * sandbox.request_log (the simulated upstream logs every call it gets), and the pgboss schema (the job
 * queue's own bookkeeping, which its cron ticks change every minute whatever the requests).
 */
async function fingerprintQuery(sql: ReturnType<typeof connectToAppDatabase>["sql"]): Promise<string> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', table_schema, table_name) as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema in ('public', 'sandbox')
      and (table_schema, table_name) not in (('public', 'audit_log'), ('public', 'rate_limit_buckets'), ('sandbox', 'request_log'))
    order by 1`;
  return tables
    .map(({ name }) => `select '${name}' as name, count(*)::text as n, coalesce(max(xmin::text::bigint), 0)::text as x from ${name}`)
    .join(" union all ");
}

/** What failed, then fast-check's report (seed, counterexample), each line cut short: a counterexample may hold 100k characters. */
function summaryOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  const message = error instanceof Error ? error.message : String(error);
  return [cause, ...message.split("\n").slice(0, 3)]
    .filter(Boolean)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
    .join(" | ");
}

type Fingerprint = Map<string, string>;

function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return [...after].filter(([name, value]) => before.get(name) !== value).map(([name]) => name);
}

test("fuzz: every route handler, method and role answers arbitrary input without a 5xx, and a 4xx changes nothing", async () => {
  test.setTimeout(120_000);
  const database = connectToAppDatabase();
  const fingerprintSql = await fingerprintQuery(database.sql);
  // A snapshot (xmin, xmax, transactions in progress) that has not moved means no transaction that writes began or
  // ended since it was taken: every table reads as it did, and the fingerprint taken after it still holds. Most
  // refused requests write nothing, so most fingerprints are this one query instead of a count of every table.
  let last: { snapshot: string; fingerprint: Fingerprint } | undefined;
  const fingerprint = async (): Promise<Fingerprint> => {
    const [{ snapshot }] = await database.sql<[{ snapshot: string }]>`select pg_current_snapshot()::text as snapshot`;
    if (last?.snapshot === snapshot) return last.fingerprint;
    const rows = await database.sql.unsafe<{ name: string; n: string; x: string }[]>(fingerprintSql);
    last = { snapshot, fingerprint: new Map(rows.map((row) => [row.name, `${row.n}/${row.x}`])) };
    return last.fingerprint;
  };
  // Sessions and previews other specs started would change tables while we watch: let them finish first.
  await expect
    .poll(
      async () =>
        (
          await database.sql`select (select count(*) from sync_sessions where status in ('queued', 'running')) + (select count(*) from preview_runs where status in ('queued', 'running')) as busy`
        )[0]!.busy,
      { timeout: 60_000 },
    )
    .toBe("0");

  // next-auth's own endpoints and the sandbox (another company's simulated API, behind its own API key,
  // with its own error format) are not our route handlers; the sign-in callback gets its own run below.
  const routes = discoverRoutes().filter(
    (route) => route.kind === "api" && !route.pattern.startsWith("/sandbox/") && route.pattern !== "/api/auth/[...nextauth]",
  );
  const contexts = new Map<Role | null, APIRequestContext>();
  for (const caller of [null, ...roles] as (Role | null)[]) contexts.set(caller, await apiAs(caller));

  const failures: string[] = [];
  let calls = 0;
  let index = 0;
  for (const route of routes) {
    const paramNames = [...route.pattern.matchAll(/\[\.{0,3}([^\]]+)\]/g)].map((match) => match[1]!);
    for (const method of route.methods) {
      for (const [caller, api] of contexts) {
        const seed = SEED + index++;
        const label = `${caller ?? "signed-out"} ${method} ${route.pattern}`;
        let before = await fingerprint();
        try {
          await fc.assert(
            fc.asyncProperty(inputFor(paramNames), async (input) => {
              calls += 1;
              const url = urlOf(route.pattern, input);
              // A request line past Node's header limit is answered 431 and the socket closed before any handler runs:
              // a body still being written then races that close (ECONNRESET), so such a URL goes without one. The
              // line itself can be long enough (100,000 characters, 900 KB encoded) to race it too: a reset for such a
              // URL is that refusal, counted as a 431.
              const oversized = url.length > MAX_HEADER_BYTES;
              const response = await api
                .fetch(url, {
                  method,
                  data: method === "GET" || oversized ? undefined : input.body,
                  maxRedirects: 0,
                  failOnStatusCode: false,
                  timeout: 15_000,
                })
                .catch((error: unknown) => {
                  if (oversized && /ECONNRESET|EPIPE/.test(String(error))) return null;
                  throw error;
                });
              const status = response?.status() ?? 431;
              if (status >= 500) throw new Error(`${status} for ${url.slice(0, 300)}: ${(await response!.text()).slice(0, 300)}`);
              const after = await fingerprint();
              const changed = changedTables(before, after);
              before = after;
              if (status >= 400 && changed.length) throw new Error(`${status} for ${url.slice(0, 300)} changed ${changed.join(", ")}`);
            }),
            { seed, numRuns: RUNS_PER_CALL, endOnFailure: true },
          );
        } catch (error) {
          failures.push(`${label} (FUZZ_SEED=${SEED}, this call's seed ${seed}): ${summaryOf(error)}`);
        }
      }
    }
  }

  // The sign-in form, signed out: strings into the email and password next-auth hands to authorize().
  const anonymous = contexts.get(null)!;
  const { csrfToken } = await (await anonymous.get("/api/auth/csrf")).json();
  try {
    await fc.assert(
      fc.asyncProperty(hostileString, hostileString, async (email, password) => {
        calls += 1;
        const before = await fingerprint();
        const response = await anonymous.post("/api/auth/callback/credentials", {
          form: { csrfToken, email, password, json: "true" },
          failOnStatusCode: false,
        });
        const text = await response.text();
        if (response.status() >= 500) throw new Error(`${response.status()}: ${text.slice(0, 300)}`);
        if (/Failed query|select |params/.test(text)) throw new Error(`internals in the answer: ${text.slice(0, 300)}`);
        const changed = changedTables(before, await fingerprint());
        if (changed.length) throw new Error(`a refused sign-in changed ${changed.join(", ")}`);
      }),
      { seed: SEED, numRuns: 25, endOnFailure: true },
    );
  } catch (error) {
    failures.push(`sign-in callback (FUZZ_SEED=${SEED}): ${summaryOf(error)}`);
  } finally {
    // Failed attempts from 127.0.0.1 count against its per-address limit: later specs sign in from it too.
    await database.sql`delete from rate_limit_buckets where key like 'sign-in:%'`;
  }

  await Promise.all([...contexts.values()].map((context) => context.dispose()));
  await database.close();
  console.log(`fuzz: ${calls} requests over ${index} route × method × caller combinations (FUZZ_SEED=${SEED})`);
  expect(failures).toEqual([]);
});
