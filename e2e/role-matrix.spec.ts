import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { rolesAllowed, type Action } from "../lib/auth/permissions";
import type { Role } from "../lib/auth/roles";
import { concretePath, discoverRoutes } from "./support/routes";
import { roles, storageStateOf } from "./support/roles";
import { baseUrl, expect, test } from "./support/test";

/**
 * The action a page or route handler takes: who may use it is what lib/auth/permissions allows that action
 * (the same table the app checks). "signed-in": any role. "public": no sign-in needed (the invite link is the
 * credential). "external": not our session surface (next-auth's own endpoints; the sandbox simulates another
 * company's API with its own keys).
 */
type Access = Action | "signed-in" | "public" | "external";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const expectations: Record<string, Access | Partial<Record<Method, Access>>> = {
  "page /": "signed-in",
  "page /sign-in": "public",
  "page /invite/[token]": "public",
  "page /locations": "location.view",
  "page /locations/new": "location.create",
  "page /locations/import": "location.import",
  "page /locations/[locationId]": "location.view",
  "page /locations/[locationId]/edit": "location.edit",
  "page /locations/[locationId]/connect": "location.connect",
  "page /locations/[locationId]/preview": "preview.view",
  "page /sessions": "session.view",
  "page /locations/[locationId]/sessions": "session.view",
  "page /sessions/[sessionId]": "session.view",
  "page /settings": "signed-in",
  "page /settings/users": "users.manage",
  "page /settings/account": "account.password",
  "page /reset-password/[token]": "public",
  "page /settings/audit": "audit.view",
  "page /settings/environments": "environments.manage",
  "page /settings/sandbox": "sandbox.inspect",
  "page /settings/alerts": "alerts.manage",
  "page /settings/api": "api.docs.view",
  "page /fleet": "fleet.view",
  "api /api/auth/[...nextauth]": "external",
  "api /api/users": "users.manage",
  "api /api/users/[id]": "users.manage",
  "api /api/users/[id]/invite": "users.manage",
  "api /api/users/[id]/password-reset": "users.manage",
  "api /api/password-resets/[token]": "public",
  "api /api/account/password": "account.password",
  "api /api/invites/[token]": "public",
  "api /api/health": "public",
  "api /api/openapi.json": "api.docs.view",
  // A bearer token (METRICS_TOKEN), not a sign-in: lib/metrics/metrics.test.ts
  "api /api/metrics": "external",
  "api /api/audit-log": "audit.view",
  "api /api/environments": "environments.manage",
  "api /api/environments/[name]": "environments.manage",
  "api /api/environments/[name]/credentials-test": "environments.manage",
  "api /api/locations": { GET: "location.view", POST: "location.create" },
  "api /api/locations/import": "location.import",
  "api /api/locations/[locationId]": { GET: "location.view", PATCH: "location.edit", DELETE: "location.delete" },
  "api /api/locations/[locationId]/archive": { POST: "location.archive", DELETE: "location.archive" },
  "api /api/locations/[locationId]/environment": { POST: "location.environment.move" },
  "api /api/locations/[locationId]/connection": { POST: "location.connect", DELETE: "location.connect" },
  "api /api/locations/[locationId]/connection/test": "location.connect",
  "api /api/locations/[locationId]/owner-invitations": "location.owners.invite",
  "api /api/locations/[locationId]/preview": { GET: "preview.view", POST: "preview.refresh" },
  "api /api/locations/[locationId]/preview/records": "preview.view",
  "api /api/locations/[locationId]/preview/records/[seq]": "preview.view",
  "api /api/locations/[locationId]/preview/issues": "preview.view",
  "api /api/locations/[locationId]/schedule": { POST: "schedule.pause" },
  "api /api/alerts/channels": { GET: "alerts.manage", PUT: "alerts.manage" },
  "api /api/locations/[locationId]/sessions": { GET: "session.view", POST: "sync.start" },
  "api /api/locations/[locationId]/replays": "sync.replay",
  "api /api/sessions": "session.view",
  "api /api/sessions/[sessionId]": "session.view",
  "api /api/fleet": "fleet.view",
  "api /api/sandbox/faults": { GET: "sandbox.inspect", POST: "sandbox.faults", DELETE: "sandbox.faults" },
  "api /api/sessions/[sessionId]/attempts/[attemptId]": "session.attempts.view",
  "api /api/sessions/[sessionId]/items/[itemId]/fixture": "fixture.export",
  "api /api/sessions/[sessionId]/cancel": "sync.cancel",
  "api /api/sessions/[sessionId]/resume": "sync.resume",
  "api /api/sessions/[sessionId]/close-upstream": "sync.close-upstream",
  "api /api/sessions/[sessionId]/confirm-removals": "sync.confirm-removals",
};

/** The roles a signed-in caller needs, from the permission table; "public" and "external" need none. */
function rolesFor(access: Access): readonly Role[] | "public" | "external" {
  if (access === "public" || access === "external") return access;
  return access === "signed-in" ? roles : rolesAllowed(access);
}

function accessOf(route: { kind: string; pattern: string }, method: string): ReturnType<typeof rolesFor> | undefined {
  const entry = expectations[`${route.kind} ${route.pattern}`];
  const access = entry === undefined || typeof entry === "string" ? entry : entry[method as Method];
  return access === undefined ? undefined : rolesFor(access);
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
    .flatMap((route) =>
      route.methods.filter((method) => accessOf(route, method) === undefined).map((method) => `${route.kind} ${method} ${route.pattern}`),
    );
  expect(missing).toEqual([]);
});

async function contextFor(role: Role | null, headers: Record<string, string>): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: baseUrl(), storageState: role ? storageStateOf(role) : undefined, extraHTTPHeaders: headers });
}

/** The statuses routeHandler refuses with before an operation runs: the API document lists each for the operations that give it. */
const refusalStatuses = new Set([401, 403, 413, 415, 422]);

/** The statuses the API document lists per "METHOD /api/path/{param}". */
async function documentedStatuses(): Promise<Map<string, Set<string>>> {
  const admin = await contextFor("admin", {});
  const document = (await (await admin.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, { responses: object }>> };
  await admin.dispose();
  return new Map(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, new Set(Object.keys(operation.responses))]),
    ),
  );
}

for (const [index, headers] of bypassHeaders.entries()) {
  test(`role × route matrix${index ? " with middleware-bypass headers" : ""}`, async () => {
    const failures: string[] = [];
    const documented = await documentedStatuses();
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
            const operation = `${method} ${route.pattern.replace(/\[([^\]]+)\]/g, "{$1}")}`;
            if (refusalStatuses.has(status) && !documented.get(operation)?.has(String(status)))
              failures.push(`${label} (not among the statuses the API document lists for ${operation})`);
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
