import { z } from "zod";
import { DateTimeStyle } from "@/lib/upstream/formats";
import { safeText } from "@/lib/validation/safe-text";

export const EnvironmentName = z.enum(["staging", "production"]);
/** The route parameter of /api/environments/[name]. */
export const EnvironmentNameParams = z.object({ name: EnvironmentName });
export type EnvironmentName = z.infer<typeof EnvironmentName>;

export const environmentNames = EnvironmentName.options;

/** http(s) origin plus optional path: no user/password, query or fragment; no trailing slash. */
export const BaseUrl = safeText()
  .trim()
  .min(1, "Enter the base URL, e.g. https://api.example.com")
  .max(2048, "Must be at most 2048 characters")
  .transform((value, context) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      context.addIssue({ code: "custom", message: "Must be a full URL starting with https:// or http://" });
      return z.NEVER;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      context.addIssue({ code: "custom", message: "Must start with https:// or http://" });
      return z.NEVER;
    }
    if (url.username || url.password) {
      context.addIssue({ code: "custom", message: "Must not contain a user name or password" });
      return z.NEVER;
    }
    if (url.search || value.includes("?")) {
      context.addIssue({ code: "custom", message: "Must not contain a query string (?…)" });
      return z.NEVER;
    }
    if (url.hash || value.includes("#")) {
      context.addIssue({ code: "custom", message: "Must not contain a fragment (#…)" });
      return z.NEVER;
    }
    return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  });

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A host name or IPv4 address, optionally with :port, or `*.domain` for its subdomains (a storage bucket's host, as the
 * client's allow-list reads it: lib/upstream/upload.ts), lower-cased.
 */
export const UploadHost = safeText()
  .trim()
  .toLowerCase()
  .min(1, "Must not be empty")
  .refine((value) => {
    const match = /^(\*\.)?([^:*]+)(?::(\d{1,5}))?$/.exec(value);
    if (!match) return false;
    // A wildcard covers the subdomains of a domain, never a whole top-level domain.
    if (match[1] && !match[2]!.includes(".")) return false;
    const port = match[3] === undefined ? 1 : Number(match[3]);
    return HOSTNAME.test(match[2]!) && port >= 1 && port <= 65535;
  }, "Must be a host name such as uploads.example.com, optionally with :port, or *.example.com for its subdomains (no scheme or path)");

export const UploadHosts = z
  .array(UploadHost)
  .min(1, "Name at least one host that upload addresses may point to")
  .max(20, "At most 20 hosts")
  .transform((hosts) => [...new Set(hosts)]);

// Secrets travel in HTTP headers and bodies: a control character would break the request, not the upstream.
const Secret = (what: string) =>
  safeText().trim().min(1, `Must not be empty; leave the ${what} out to keep the stored one`).max(4096, "Must be at most 4096 characters");

const PlainField = (what: string) => safeText().trim().min(1, `Enter the ${what}`).max(512, "Must be at most 512 characters");

/** One shape for the form, the route handler and the CLI. Omitted secrets keep the stored ones. */
export const EnvironmentUpdateInput = z.object({
  baseUrl: BaseUrl,
  uploadHosts: UploadHosts,
  clientId: PlainField("client ID"),
  dataSourceName: PlainField("data source name"),
  apiKey: Secret("API key").optional(),
  clientSecret: Secret("client secret").optional(),
  /** Omitted: kept as stored (new environments write the spec's form). */
  dateTimeStyle: DateTimeStyle.optional(),
  /**
   * Only with a new base URL origin: the admin confirms the service itself moved, so the connected locations' tokens
   * go to the new address. Left out, they stay bound to the old one and those locations need reconnecting.
   */
  tokensMoveToNewAddress: z.boolean().optional(),
});
export type EnvironmentUpdateInput = z.input<typeof EnvironmentUpdateInput>;
export type ParsedEnvironmentUpdate = z.output<typeof EnvironmentUpdateInput>;

export const SecretStatus = z.object({ set: z.boolean(), hint: z.string().nullable() });
export type SecretStatus = z.infer<typeof SecretStatus>;

/** The only shape of an environment that leaves the server: secrets appear as set/hint only. */
export const EnvironmentView = z.object({
  name: EnvironmentName,
  baseUrl: z.string().nullable(),
  uploadHosts: z.array(z.string()),
  clientId: z.string().nullable(),
  dataSourceName: z.string().nullable(),
  dateTimeStyle: DateTimeStyle,
  apiKey: SecretStatus,
  clientSecret: SecretStatus,
  configured: z.boolean(),
  /** Connected locations whose tokens the current base URL's origin issued: they would go to a new address. */
  connectedLocations: z.number().int(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type EnvironmentView = z.infer<typeof EnvironmentView>;

/** Test credentials: one owner login at the service, used once to ask for a User Access Token and never kept. */
export const CredentialsTestInput = z.object({
  email: safeText().trim().min(1, "Enter the email of an owner's account at the service").max(254, "Must be at most 254 characters"),
  password: z.string().min(1, "Enter that account's password").max(1024, "Must be at most 1024 characters"),
});
export type CredentialsTestInput = z.infer<typeof CredentialsTestInput>;

/** What Test credentials found: `ok`, or which of the environment's settings (or the login) the service refused. */
export const CredentialsTestOutcome = z.enum(["ok", "api_key", "client_credentials", "login", "refused", "unreachable", "wrong_origin"]);
export type CredentialsTestOutcome = z.infer<typeof CredentialsTestOutcome>;

export const CredentialsTestResult = z.object({ ok: z.boolean(), outcome: CredentialsTestOutcome, message: z.string() });
export type CredentialsTestResult = z.infer<typeof CredentialsTestResult>;
