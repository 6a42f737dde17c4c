import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { Role } from "../lib/auth/roles";
import { concretePath, discoverRoutes } from "./support/routes";
import { roles, storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

type Access = Role[] | "public" | "external";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const STAFF: Role[] = ["admin", "support", "engineer"];
const EVERYONE: Role[] = [...STAFF, "owner"];
const EDITORS: Role[] = ["admin", "support"];
const ACTORS: Role[] = ["admin", "support", "owner"];

/**
 * Who may use each page and route handler. "public": no sign-in needed (the
 * invite link is the credential). "external": not our session surface (next-auth's
 * own endpoints; the sandbox simulates another company's API with its own keys).
 */
const expectations: Record<string, Access | Partial<Record<Method, Access>>> = {
  "page /": EVERYONE,
  "page /sign-in": "public",
  "page /invite/[token]": "public",
  "page /locations": EVERYONE,
  "page /locations/new": EDITORS,
  "page /locations/[locationId]": EVERYONE,
  "page /locations/[locationId]/edit": EDITORS,
  "page /locations/[locationId]/connect": ACTORS,
  "page /locations/[locationId]/preview": EVERYONE,
  "page /sessions": EVERYONE,
  "page /locations/[locationId]/sessions": EVERYONE,
  "page /sessions/[sessionId]": EVERYONE,
  "page /settings": EVERYONE,
  "page /settings/users": ["admin"],
  "page /settings/audit": ["admin"],
  "page /settings/environments": ["admin"],
  "page /settings/sandbox": ["admin", "engineer"],
  "page /settings/alerts": ["admin"],
  "page /fleet": STAFF,
  "api /api/auth/[...nextauth]": "external",
  "api /api/users": ["admin"],
  "api /api/users/[id]": ["admin"],
  "api /api/users/[id]/invite": ["admin"],
  "api /api/invites/[token]": "public",
  "api /api/health": "public",
  "api /api/audit-log": ["admin"],
  "api /api/environments": ["admin"],
  "api /api/environments/[name]": ["admin"],
  "api /api/locations": { GET: EVERYONE, POST: EDITORS },
  "api /api/locations/[locationId]": { GET: EVERYONE, PATCH: EDITORS },
  "api /api/locations/[locationId]/connection": { POST: ACTORS, DELETE: ACTORS },
  "api /api/locations/[locationId]/connection/test": ACTORS,
  "api /api/locations/[locationId]/owner-invitations": EDITORS,
  "api /api/locations/[locationId]/preview": { GET: EVERYONE, POST: ACTORS },
  "api /api/locations/[locationId]/preview/records": EVERYONE,
  "api /api/locations/[locationId]/preview/issues": EVERYONE,
  "api /api/locations/[locationId]/schedule": { POST: EDITORS },
  "api /api/alerts/channels": { GET: ["admin"], PUT: ["admin"] },
  "api /api/locations/[locationId]/sessions": { GET: EVERYONE, POST: ACTORS },
  "api /api/sessions/[sessionId]": EVERYONE,
  "api /api/sessions/[sessionId]/cancel": EDITORS,
  "api /api/sessions/[sessionId]/resume": EDITORS,
  "api /api/sessions/[sessionId]/close-upstream": EDITORS,
  "api /api/sessions/[sessionId]/confirm-removals": EDITORS,
};

function accessOf(route: { kind: string; pattern: string }, method: string): Access | undefined {
  const entry = expectations[`${route.kind} ${route.pattern}`];
  if (entry === undefined || typeof entry === "string" || Array.isArray(entry)) return entry;
  return entry[method as Method];
}

const routes = discoverRoutes();
const bypassHeaders: Record<string, string>[] = [
  {},
  // Known ways to skip Next.js middleware; our checks live in every handler and page, so they change nothing.
  { "x-middleware-subrequest": "middleware:middleware:middleware:middleware:middleware", "x-nextjs-data": "1" },
];

test("every page and route handler has an access expectation", () => {
  const missing = routes
    .filter((route) => !route.pattern.startsWith("/sandbox/"))
    .flatMap((route) => route.methods.filter((method) => accessOf(route, method) === undefined).map((method) => `${route.kind} ${method} ${route.pattern}`));
  expect(missing).toEqual([]);
});

async function contextFor(role: Role | null, headers: Record<string, string>): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: baseUrl(), storageState: role ? storageStateOf(role) : undefined, extraHTTPHeaders: headers });
}

for (const [index, headers] of bypassHeaders.entries()) {
  test(`role × route matrix${index ? " with middleware-bypass headers" : ""}`, async () => {
    const failures: string[] = [];
    for (const caller of [null, ...roles] as (Role | null)[]) {
      const api = await contextFor(caller, headers);
      for (const route of routes) {
        const url = concretePath(route.pattern);
        for (const method of route.methods) {
          const access = accessOf(route, method);
          if (!access || access === "external") continue;
          const response = await api.fetch(url, { method, maxRedirects: 0, data: method === "GET" ? undefined : {}, failOnStatusCode: false });
          const status = response.status();
          const label = `${caller ?? "signed-out"} ${method} ${url} → ${status}`;
          const allowed = access === "public" || (caller !== null && access.includes(caller));
          if (route.kind === "page") {
            const location = response.headers()["location"] ?? "";
            if (route.pattern === "/" && caller !== null) {
              if (!(status === 307 && location.endsWith("/locations"))) failures.push(`${label} (expected redirect to /locations)`);
            } else if (access === "public") {
              // Signed-in callers may be sent on (sign-in → their page); nobody is refused.
              if (!(status === 200 || (caller !== null && status === 307))) failures.push(`${label} (expected 200)`);
            } else if (caller === null) {
              if (!(status === 307 && location.includes("/sign-in"))) failures.push(`${label} (expected redirect to sign-in)`);
            } else {
              // A route with a [param] is probed with an id that does not exist: allowed callers get the not-found page.
              const expected = allowed ? (route.pattern.includes("[") ? 404 : 200) : 403;
              if (status !== expected) failures.push(`${label} (expected ${expected})`);
            }
          } else {
            const isProblem = (response.headers()["content-type"] ?? "").includes("application/problem+json");
            if (access !== "public" && caller === null) {
              if (status !== 401 || !isProblem) failures.push(`${label} (expected 401 problem+json)`);
            } else if (!allowed) {
              if (status !== 403 || !isProblem) failures.push(`${label} (expected 403 problem+json)`);
            } else if (status === 401 || status === 403 || status >= 500) {
              failures.push(`${label} (expected the handler to run)`);
            }
          }
        }
      }
      await api.dispose();
    }
    expect(failures).toEqual([]);
  });
}
