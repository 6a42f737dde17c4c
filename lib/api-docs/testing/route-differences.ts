import { routeSpecOf } from "@/lib/http/route-handler";
import { pathParameterNames, type OpenApiDocument } from "../api-document";
import type { ApiOperation } from "../api-operations";

const httpMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface RouteModule {
  /** The route file, relative to the app folder: `api/locations/[locationId]/route.ts`. */
  file: string;
  exports: Record<string, unknown>;
}

/** The URL path a route file serves, in OpenAPI form: `[id]` and `[...slug]` become `{id}` and `{slug}`; `(group)` folders drop out. */
export function openApiPathOf(file: string): string {
  const segments = file
    .split("/")
    .slice(0, -1)
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .map((segment) => segment.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}"));
  return `/${segments.join("/")}`;
}

/**
 * Every way the route files and the API document disagree: a route or method missing from the document (or
 * documented without a handler), other path parameters, and — for handlers made by routeHandler — another permission
 * or other params, query or body schemas than the documented ones.
 */
export function routeDifferences(routes: RouteModule[], document: OpenApiDocument, operations: ApiOperation[]): string[] {
  const differences: string[] = [];
  const served = new Set<string>();
  for (const route of routes) {
    const path = openApiPathOf(route.file);
    const methods = httpMethods.filter((method) => typeof route.exports[method] === "function");
    for (const method of methods) {
      const key = `${method} ${path}`;
      served.add(key);
      const documented = document.paths[path]?.[method.toLowerCase()];
      if (!documented) {
        differences.push(`${key}: has a handler (${route.file}) but is not in the document`);
        continue;
      }
      const documentedParameters = documented.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name);
      if (documentedParameters.sort().join(",") !== pathParameterNames(path).sort().join(",")) {
        differences.push(`${key}: path parameters ${pathParameterNames(path).join(",")} are documented as ${documentedParameters.join(",")}`);
      }
      const spec = routeSpecOf(route.exports[method]);
      const operation = operations.find((candidate) => candidate.method === method && candidate.path === path);
      if (!spec || !operation) continue;
      if (spec.action !== operation.action) differences.push(`${key}: the handler takes "${spec.action}", the document says "${operation.action}"`);
      if (spec.params !== operation.params) differences.push(`${key}: the handler parses other path parameters than the document's`);
      if (spec.query !== operation.query) differences.push(`${key}: the handler parses another query than the document's`);
      const documentedBody = operation.bodyReadByHandler ? undefined : operation.body;
      if (spec.body !== documentedBody) differences.push(`${key}: the handler parses another body than the document's`);
    }
  }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of Object.keys(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (!served.has(key)) differences.push(`${key}: is in the document but no route handler serves it`);
    }
  }
  return differences;
}
