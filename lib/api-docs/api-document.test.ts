import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { buildApiDocument } from "./api-document";
import { apiOperations } from "./api-operations";
import { routeDifferences, type RouteModule } from "./testing/route-differences";

const appFolder = path.resolve(import.meta.dirname, "../../app");

async function apiRouteModules(): Promise<RouteModule[]> {
  const files = readdirSync(path.join(appFolder, "api"), { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => `api/${file.split(path.sep).join("/")}`)
    .sort();
  return Promise.all(files.map(async (file) => ({ file, exports: (await import(path.join(appFolder, file))) as Record<string, unknown> })));
}

describe("the API document", () => {
  it("documents every handler under app/api with its methods, path parameters, permission and schemas, and nothing else", async () => {
    const routes = await apiRouteModules();
    expect(routes.length).toBeGreaterThan(25);
    expect(routeDifferences(routes, buildApiDocument(), apiOperations)).toEqual([]);
  });

  it("reports a handler missing from the document, a method too many, and a handler that parses another schema", async () => {
    const routes = await apiRouteModules();
    const changed = routes.map((route) =>
      route.file === "api/locations/[locationId]/route.ts"
        ? { ...route, exports: { ...route.exports, PUT: routeHandler({ action: "location.edit", params: LocationId }, async () => ({})) } }
        : route.file === "api/sessions/[sessionId]/cancel/route.ts"
          ? { ...route, exports: { POST: routeHandler({ action: "sync.cancel", params: z.object({ sessionId: z.string() }) }, async () => ({})) } }
          : route,
    );
    changed.push({
      file: "api/locations/[locationId]/teleport/route.ts",
      exports: { POST: routeHandler({ action: "location.edit" }, async () => ({})) },
    });
    expect(routeDifferences(changed, buildApiDocument(), apiOperations)).toEqual([
      "PUT /api/locations/{locationId}: has a handler (api/locations/[locationId]/route.ts) but is not in the document",
      "POST /api/sessions/{sessionId}/cancel: the handler parses other path parameters than the document's",
      "POST /api/locations/{locationId}/teleport: has a handler (api/locations/[locationId]/teleport/route.ts) but is not in the document",
    ]);
  });

  it("is an OpenAPI 3.1 document whose references all resolve", () => {
    const document = buildApiDocument();
    expect(document.openapi).toBe("3.1.0");
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/(schemas|responses)\/([^"]+)"/g)];
    expect(references.length).toBeGreaterThan(10);
    for (const [, kind, name] of references) expect(document.components[kind as "schemas" | "responses"], name).toHaveProperty(name!);
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
    // The handler's own rules reach the document: a location id is a uuid, a history page holds at most 200.
    const history = document.paths["/api/locations/{locationId}/sessions"]!.get!;
    expect(history.parameters.find((parameter) => parameter.name === "locationId")!.schema).toMatchObject({ format: "uuid" });
    expect(history.parameters.find((parameter) => parameter.name === "limit")!.schema).toMatchObject({ maximum: 200 });
  });

  it("lists with each operation the refusals the route handler makes before it runs (e2e/role-matrix.spec.ts checks them against the server)", () => {
    const document = buildApiDocument();
    const statuses = (path: string, method: "get" | "post" | "patch") => Object.keys(document.paths[path]![method]!.responses).sort();
    // Signed in with a permission, a JSON body and a path parameter: every refusal.
    expect(statuses("/api/locations/{locationId}", "patch")).toEqual(expect.arrayContaining(["401", "403", "413", "415", "422", "default"]));
    // Signed in, no input: the sign-in, the permission, and unstorable text in its query.
    expect(statuses("/api/openapi.json", "get")).toEqual(["200", "401", "403", "422", "default"]);
    // Public, no input: only unstorable text in its query, and what it answers itself.
    expect(statuses("/api/health", "get")).toEqual(["200", "422", "503", "default"]);
    // A permission every role holds refuses no signed-in caller.
    expect(statuses("/api/locations", "get")).toEqual(["200", "401", "422", "default"]);
    expect(document.paths["/api/locations"]!.post!.responses["403"]!.description).toBe(
      "Refused: the signed-in role lacks the permission `location.create`, or the write came from another origin.",
    );
  });
});
