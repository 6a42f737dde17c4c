/**
 * The one place that reads the environment. Every variable the app reads is declared below with its rule, its default
 * and what it means; the rest of the code asks getConfig() (ESLint forbids `process.env` elsewhere, see
 * eslint.config.mjs). Server-side only: values such as DATABASE_URL or APP_SECRET_KEY must never reach a browser
 * bundle (components/ may not import this module; getConfig() refuses to run in a browser).
 *
 * This module sits at the bottom of the layers with lib/upstream and lib/errors: it imports nothing of the project, so
 * db/ may use it too.
 */
import { z } from "zod";

/** A missing or invalid setting. Entry points print its message alone (no stack) and exit with code 1. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

interface VariableInfo {
  /** The default as a person reads it (docs, errors); the schema holds the value itself. */
  defaultText: string;
  description: string;
  /** What a valid value looks like, completing "<NAME> must …" in the error. */
  rule: string;
  /** Never repeated in an error (credentials, URLs that may hold a password). */
  secret?: boolean;
  /** A whole error message of its own, for a non-secret variable (receives the value, JSON-quoted). */
  invalid?: (quoted: string) => string;
}

interface Variable<S extends z.ZodType> extends VariableInfo {
  /** Parses the raw value: a string, or undefined when the variable is unset or blank. */
  schema: S;
}

function variable<S extends z.ZodType>(schema: S, info: VariableInfo): Variable<S> {
  return { schema, ...info };
}

/** `true` or `false`. */
const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .pipe(z.enum(["true", "false"]))
    .transform((value) => value === "true")
    .default(fallback);

/** A whole number from `min` to `max`. */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max));

const port = () => integer(1, 65_535);

/** An absolute URL whose scheme is one of `protocols` (e.g. "https:"). */
const url = (...protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol));

/** A key of APP_SECRET_KEY: base64 (standard or URL-safe alphabet) of exactly 32 bytes, i.e. 43 characters and at most one "=". */
export const SECRET_KEY_PATTERN = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * The built-in sandbox's response shapes. db/schema/sandbox.ts holds the same list as the column's enum (this module
 * imports nothing of the project); lib/config/config.test.ts checks that the two agree.
 */
export const sandboxResponseShapeNames = ["documented", "empty", "no_content", "nested", "text", "extra"] as const;

/** What owners are shown outside production mode (the demo, tests); production mode refuses it (lib/runtime/mode.ts). */
export const DEMO_SUPPORT_EMAIL = "support@location-sync.invalid";

/** Reserved for documentation and testing (RFC 2606, RFC 6761): no mail is delivered at these. */
const RESERVED_TOP_LEVEL_DOMAINS = ["invalid", "example", "test", "localhost"];
const RESERVED_DOMAINS = ["example.com", "example.net", "example.org"];

/** The reserved domain an e-mail address is at (".test", "example.com"), or undefined for one that may receive mail. */
export function reservedMailDomainOf(address: string): string | undefined {
  const domain = address
    .slice(address.lastIndexOf("@") + 1)
    .toLowerCase()
    .replace(/\.$/, "");
  const topLevel = domain.slice(domain.lastIndexOf(".") + 1);
  if (RESERVED_TOP_LEVEL_DOMAINS.includes(topLevel)) return `.${topLevel}`;
  return RESERVED_DOMAINS.find((reserved) => domain === reserved || domain.endsWith(`.${reserved}`));
}

const variables = {
  NODE_ENV: variable(
    z
      .string()
      .trim()
      .pipe(z.enum(["development", "production", "test"]))
      .default("development"),
    {
      defaultText: "`development` (`npm start`/`serve` set `production`)",
      description:
        "`production` **with** `DATABASE_URL` is production mode: no demo data, no sandbox fault injection, and `APP_SECRET_KEY`, `NEXTAUTH_SECRET` and `SUPPORT_EMAIL` are required.",
      rule: "be one of: development, production, test",
    },
  ),
  DATABASE_URL: variable(url("postgres:", "postgresql:").optional(), {
    defaultText: "unset → embedded PostgreSQL under `DATA_DIR`",
    description: "The app's PostgreSQL. Set it to use your own server.",
    rule: "be a postgres:// or postgresql:// URL",
    secret: true,
  }),
  LOCATION_SYNC_EMBEDDED: variable(
    z
      .string()
      .trim()
      .pipe(z.enum(["0", "1"]))
      .transform((value) => value === "1")
      .default(false),
    {
      defaultText: "unset",
      description:
        "Internal: `1` once this process (or the one that started it) runs on the embedded PostgreSQL. Set by the runtime, not by operators.",
      rule: "be 1 or 0",
    },
  ),
  DATA_DIR: variable(z.string().default(".data"), {
    defaultText: "`.data`",
    description: "Embedded database, generated key files (mode 0600).",
    rule: "be a folder path",
  }),
  PORT: variable(port().default(3000), {
    defaultText: "`3000`",
    description: "HTTP port of the dashboard.",
    rule: "be a port number (1–65535)",
  }),
  HOST: variable(z.string().trim().optional(), {
    defaultText: "`127.0.0.1` (embedded), `0.0.0.0` (production mode)",
    description: "Interface to bind.",
    rule: "be a host name or address",
  }),
  APP_SECRET_KEY: variable(z.string().trim().regex(SECRET_KEY_PATTERN).optional(), {
    defaultText: "generated into `DATA_DIR/secret-keys.json` (embedded only)",
    description: "Base64 of 32 random bytes (`openssl rand -base64 32`): the AES-256-GCM key for secrets at rest. Required in production mode.",
    rule: "be the base64 encoding of exactly 32 random bytes (generate one with: openssl rand -base64 32)",
    secret: true,
  }),
  APP_SECRET_KEY_PREVIOUS: variable(
    z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(SECRET_KEY_PATTERN)))
      .default([]),
    {
      defaultText: "unset",
      description: "Comma-separated earlier keys, only while rotating.",
      rule: "be a comma-separated list of keys, each the base64 encoding of exactly 32 random bytes",
      secret: true,
    },
  ),
  NEXTAUTH_SECRET: variable(z.string().optional(), {
    defaultText: "generated into `DATA_DIR/nextauth-secret` (embedded only)",
    description: "Signs session tokens. Required in production mode.",
    rule: "be a secret string",
    secret: true,
  }),
  NEXTAUTH_URL: variable(url("http:", "https:").optional(), {
    defaultText: "`http://localhost:$PORT`",
    description: "The dashboard's public URL (sign-in redirects, secure cookies, HSTS).",
    rule: "be an http:// or https:// URL",
  }),
  APP_ORIGIN: variable(url("http:", "https:").optional(), {
    defaultText: "`NEXTAUTH_URL`",
    description: "The public origin written into links of alert messages.",
    rule: "be an http:// or https:// URL",
  }),
  OIDC_ISSUER: variable(url("http:", "https:").optional(), {
    defaultText: "unset (no single sign-on)",
    description:
      "The issuer URL of the company's OpenID Connect provider (its `/.well-known/openid-configuration` is read). With `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` the sign-in page offers single sign-on.",
    rule: "be an http:// or https:// URL",
  }),
  OIDC_CLIENT_ID: variable(z.string().trim().optional(), {
    defaultText: "unset",
    description: "The dashboard's client ID at the OpenID Connect provider (redirect URI: `<NEXTAUTH_URL>/api/auth/callback/oidc`).",
    rule: "be a client ID",
  }),
  OIDC_CLIENT_SECRET: variable(z.string().trim().optional(), {
    defaultText: "unset",
    description: "The dashboard's client secret at the OpenID Connect provider.",
    rule: "be a client secret",
    secret: true,
  }),
  OIDC_ROLE_CLAIM: variable(z.string().trim().default("groups"), {
    defaultText: "`groups`",
    description: "The ID token claim (a string or a list of strings) whose values `OIDC_ROLE_MAP` maps to a role.",
    rule: "be a claim name",
  }),
  OIDC_ROLE_MAP: variable(
    z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[^=]+=(admin|support|engineer|owner)$/)))
      .default([]),
    {
      defaultText: "unset (every new single sign-on account waits for an admin to assign its role)",
      description:
        "Comma-separated `claim value=role` pairs, e.g. `sync-admins=admin,sync-support=support`; the first pair matching a value of the claim gives a new account its role.",
      rule: "be comma-separated value=role pairs, the role one of admin, support, engineer, owner",
    },
  ),
  RUN_WORKER: variable(flag(true), {
    defaultText: "`true`",
    description: "`false` = this web process takes no jobs (run `npm run worker` processes instead).",
    rule: "be true or false",
  }),
  TRUST_PROXY: variable(flag(false), {
    defaultText: "`false`",
    description:
      "`true` = behind your own proxy: the client address is the last `X-Forwarded-For` entry, and `X-Forwarded-Host`/`-Proto` count. Without it every `Forwarded`/`X-Forwarded-*` header is dropped.",
    rule: "be true or false",
  }),
  ALERT_WEBHOOK_ALLOW_PRIVATE: variable(flag(false), {
    defaultText: "`false`",
    description: "`true` lets alert webhooks reach loopback, private and link-local addresses (tests, an in-house relay).",
    rule: "be true or false",
  }),
  WORKER_HEALTH_PORT: variable(port().optional(), {
    defaultText: "unset (no endpoint)",
    description: "A standalone worker answers `GET /health` on this port (200 ready, 503 not) for its supervisor.",
    rule: "be a port number (1–65535)",
  }),
  WORKER_HEALTH_HOST: variable(z.string().trim().default("127.0.0.1"), {
    defaultText: "`127.0.0.1`",
    description: "Interface of the worker's health endpoint (`0.0.0.0` when the probe comes from outside, e.g. a kubelet).",
    rule: "be a host name or address",
  }),
  AUDIT_RETENTION_DAYS: variable(integer(1).default(400), {
    defaultText: "`400`",
    description: "Audit entries older than this are pruned daily by a job.",
    rule: "be a whole number of days, at least 1",
  }),
  ATTEMPT_DETAILS_RETENTION_DAYS: variable(integer(1).default(30), {
    defaultText: "`30`",
    description:
      "The recorded request and response (headers, bodies) of each HTTP attempt are kept this long; a daily job then reduces the attempt to its summary (method, path, status, duration, sizes).",
    rule: "be a whole number of days, at least 1",
  }),
  SESSION_RETENTION_DAYS: variable(integer(1).default(400), {
    defaultText: "`400`",
    description: "Finished sync sessions older than this are deleted daily, with their steps, items and attempts.",
    rule: "be a whole number of days, at least 1",
  }),
  METRICS_TOKEN: variable(z.string().trim().min(16).optional(), {
    defaultText: "unset (`/api/metrics` answers 404)",
    description: "The bearer token Prometheus sends to `GET /api/metrics` (`Authorization: Bearer …`); `openssl rand -hex 32` makes one.",
    rule: "be at least 16 characters",
    secret: true,
  }),
  UPSTREAM_API_KEY: variable(z.string().optional(), {
    defaultText: "unset",
    description: "Read by `npm run cli -- env:set` only (never from flags).",
    rule: "be the environment's API key",
    secret: true,
  }),
  UPSTREAM_CLIENT_SECRET: variable(z.string().optional(), {
    defaultText: "unset",
    description: "Read by `npm run cli -- env:set` only (never from flags).",
    rule: "be the environment's client secret",
    secret: true,
  }),
  SANDBOX_ENABLED: variable(flag(false), {
    defaultText: "`false` (the sandbox is on anyway outside production mode)",
    description: "`true` serves the built-in sandbox under `/sandbox/...` even in production mode (otherwise those paths answer 404 there).",
    rule: "be true or false",
  }),
  SANDBOX_FAULTS: variable(
    z
      .string()
      .trim()
      .pipe(z.enum(["on", "off"]))
      .default("off"),
    {
      defaultText: "`off`",
      description:
        "`on` allows the sandbox's fault injection when `NODE_ENV=production` runs on the embedded database (always refused in production mode).",
      rule: "be on or off",
    },
  ),
  SANDBOX_UPLOAD_BASE_URL: variable(url("http:", "https:").optional(), {
    defaultText: "from the request",
    description: "Base of the built-in sandbox's upload addresses (behind a proxy).",
    rule: "be an http:// or https:// URL",
  }),
  SANDBOX_RESPONSE_SHAPE: variable(z.string().trim().pipe(z.enum(sandboxResponseShapeNames)).default("documented"), {
    defaultText: "`documented`",
    description: `How the built-in sandbox's demo environment answers the bodies the spec does not show: ${sandboxResponseShapeNames.map((name) => `\`${name}\``).join(", ")}.`,
    rule: `be one of: ${sandboxResponseShapeNames.join(", ")}`,
    invalid: (quoted) => `SANDBOX_RESPONSE_SHAPE=${quoted} is not a response shape; use one of: ${sandboxResponseShapeNames.join(", ")}.`,
  }),
  SOURCE_DATABASE_URL: variable(url("postgres:", "postgresql:").optional(), {
    defaultText: "the app's `DATABASE_URL`",
    description: "The management system's PostgreSQL.",
    rule: "be a postgres:// or postgresql:// URL",
    secret: true,
  }),
  SOURCE_SQL_DIRECTORY: variable(z.string().optional(), {
    defaultText: "`lib/source/sql`",
    description: "Where the source's `.sql` files are read from.",
    rule: "be a folder path",
  }),
  SOURCE_STATEMENT_TIMEOUT_SECONDS: variable(integer(1).default(300), {
    defaultText: "`300`",
    description:
      "Longest one statement on the source may run (a query, or one batch of a read) before the source stops it: a read waiting on a lock fails the session instead of holding it.",
    rule: "be a whole number of seconds, at least 1",
  }),
  SYNC_CONTACT_CHUNK_SIZE: variable(integer(1).default(5000), {
    defaultText: "`5000`",
    description: "Contacts (and vehicles) per import; each chunk is its own POST + upload.",
    rule: "be a whole number, at least 1",
  }),
  SYNC_STEP_ATTEMPTS: variable(integer(1).default(3), {
    defaultText: "`3`",
    description: "Engine attempts per step, after the client's own retries of each request.",
    rule: "be a whole number, at least 1",
  }),
  SYNC_STEP_BACKOFF_MS: variable(integer(0).default(5000), {
    defaultText: "`5000`",
    description: "Ceiling of the first engine backoff between step attempts, in ms (doubles, full jitter).",
    rule: "be a whole number of milliseconds, 0 or more",
  }),
  SYNC_REQUEST_BACKOFF_MS: variable(integer(0).default(500), {
    defaultText: "`500`",
    description: "Ceiling of the first backoff between the upstream client's retries of one request in a sync, in ms (doubles, full jitter).",
    rule: "be a whole number of milliseconds, 0 or more",
  }),
  SYNC_LEASE_SECONDS: variable(integer(1).default(60), {
    defaultText: "`60`",
    description: "How long a worker's claim on a session, or a process's on a preview run, lasts without renewal.",
    rule: "be a whole number of seconds, at least 1",
  }),
  SYNC_REMOVAL_THRESHOLD_PERCENT: variable(integer(0, 100).default(10), {
    defaultText: "`10`",
    description:
      "Removal safety valve: a step may unsubscribe or remove up to this share (%) of what the upstream holds without a person's confirmation…",
    rule: "be a whole number from 0 to 100",
  }),
  SYNC_REMOVAL_THRESHOLD_MIN: variable(integer(1).default(50), {
    defaultText: "`50`",
    description: "…or fewer than this many records.",
    rule: "be a whole number, at least 1",
  }),
  SYNC_WORKER_CONCURRENCY: variable(integer(1).default(4), {
    defaultText: "`4`",
    description: "Sync sessions one worker process runs at once, each of another location: a session mostly waits on the network.",
    rule: "be a whole number, at least 1",
  }),
  SYNC_OPENINGS_CONCURRENCY: variable(integer(1).default(4), {
    defaultText: "`4`",
    description: "Openings imports (one per service) in flight at once (the sync engine caps it at 8).",
    rule: "be a whole number, at least 1",
  }),
  SMTP_URL: variable(url("smtp:", "smtps:").optional(), {
    defaultText: "unset",
    description:
      'SMTP server for e-mail alerts (e.g. `smtp://user:pass@mail.example.com:587`); without it the e-mail channel shows "not configured".',
    rule: "be an smtp:// or smtps:// URL",
    secret: true,
  }),
  ALERT_EMAIL_FROM: variable(z.string().default("Location Sync <alerts@location-sync.invalid>"), {
    defaultText: "`Location Sync <alerts@location-sync.invalid>`",
    description: "Sender of e-mail alerts.",
    rule: "be an e-mail sender",
  }),
  SUPPORT_EMAIL: variable(z.string().trim().pipe(z.email()).default(DEMO_SUPPORT_EMAIL), {
    defaultText: `\`${DEMO_SUPPORT_EMAIL}\` (outside production mode only)`,
    description:
      "Whom business owners write to about their locations' syncs: shown on their location pages. Required in production mode, at a domain that receives mail (not a reserved one such as `.invalid`, `.example`, `.test`, `.localhost` or `example.com`).",
    rule: "be an e-mail address",
  }),
};

type Variables = typeof variables;
export type VariableName = keyof Variables;
/** The parsed settings, one property per variable, under the variable's own name. */
export type Config = { readonly [Name in VariableName]: z.output<Variables[Name]["schema"]> };

const names = Object.keys(variables) as VariableName[];
const schema = z.object(
  Object.fromEntries(names.map((name) => [name, variables[name].schema])) as { [Name in VariableName]: Variables[Name]["schema"] },
);

/** Each variable's default, meaning and secrecy, in declaration order (the configuration reference in the docs). */
export function configurationReference(): Array<{ name: VariableName; default: string; description: string; secret: boolean }> {
  return names.map((name) => ({
    name,
    default: variables[name].defaultText,
    description: variables[name].description,
    secret: variables[name].secret ?? false,
  }));
}

/** Blank counts as unset, as an operator's `FOO=` in a unit file means. */
function rawValues(env: Record<string, string | undefined>): Record<VariableName, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, env[name]?.trim() === "" ? undefined : env[name]])) as Record<
    VariableName,
    string | undefined
  >;
}

function problemWith(name: VariableName, value: string | undefined): string {
  const info: VariableInfo = variables[name];
  if (info.secret || value === undefined) return `${name} must ${info.rule}${info.secret ? " (value not shown)" : ""}.`;
  const quoted = JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
  return info.invalid ? info.invalid(quoted) : `${name} must ${info.rule}, not ${quoted}.`;
}

/**
 * Parses the given variables (process.env, or a plain object in tests). Throws a ConfigurationError naming every
 * invalid variable and its rule; a secret's value is never part of the message.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const raw = rawValues(env);
  const result = schema.safeParse(raw);
  if (result.success) return result.data as Config;
  const invalid = [...new Set(result.error.issues.map((issue) => issue.path[0] as VariableName))];
  throw new ConfigurationError(invalid.map((name) => problemWith(name, raw[name])).join(" "));
}

const cache: { key?: string; config?: Config } = {};

/**
 * The process's settings, parsed on first use and kept. The cache is keyed on the raw values, so that a write to the
 * environment — the defaults lib/runtime/server.ts fills in at start-up, DATABASE_URL once the embedded server runs, a
 * test's own values — is seen by the next call (a comparison of the raw strings, then no parsing).
 */
export function getConfig(): Config {
  if (typeof window !== "undefined") throw new Error("lib/config is server-only: pass the values a browser needs as props.");
  const key = names.map((name) => process.env[name] ?? "\u0000").join("\u0001");
  if (cache.key !== key || !cache.config) {
    cache.config = parseConfig(process.env);
    cache.key = key;
  }
  return cache.config;
}

/** Sets variables for this process and the processes it starts (the runtime's start-up values, benchmarks). */
export function setEnvironment(values: Partial<Record<VariableName, string>>): void {
  Object.assign(process.env, values);
}

/** Sets each variable that is unset (or blank), leaving the operator's own values alone. */
export function setEnvironmentDefaults(values: Partial<Record<VariableName, string>>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !process.env[name]?.trim()) process.env[name] = value;
  }
}

/**
 * The environment a child process inherits (all of it, not only the variables above), with `overrides` on top and
 * `nodeOptions` appended to NODE_OPTIONS (benchmarks, tools that start processes of ours).
 */
export function childProcessEnvironment(
  overrides: Record<string, string | undefined> = {},
  options: { nodeOptions?: string } = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
  if (options.nodeOptions) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} ${options.nodeOptions}`.trim();
  return env;
}
