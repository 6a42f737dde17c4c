import { z } from "zod";
import { rolesAllowed, type Action } from "@/lib/auth/permissions";
import { ALL_ROLES } from "@/lib/auth/roles";
import { getConfig, type Config } from "@/lib/config/config";
import { publicOriginIsHttps } from "@/lib/runtime/security-headers";
import { apiOperations, apiSchemas, type ApiOperation } from "./api-operations";

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  "x-permission": string;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema>; responses: Record<string, JsonSchema> };
}

const schemaNames = new Map<z.ZodType, string>(Object.entries(apiSchemas).map(([name, schema]) => [schema as z.ZodType, name]));

/** What a client sends (io "input": defaults are optional, transforms show what they accept). */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

function refOrInline(schema: z.ZodType): JsonSchema {
  const name = schemaNames.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : jsonSchemaOf(schema);
}

function parametersOf(schema: z.ZodType | undefined, location: "path" | "query"): OpenApiParameter[] {
  if (!schema) return [];
  const object = jsonSchemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property as JsonSchema & { description?: string };
    return {
      name,
      in: location,
      required: location === "path" || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

/** `{name}` segments of an OpenAPI path. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

/**
 * The refusals routeHandler (lib/http/route-handler.ts) makes before the operation runs, which every such operation can
 * answer: a write from another origin, no sign-in or a role without the permission, a body that is not JSON or too
 * large, input its schemas refuse. An operation's own refusals (404, 409, …) stay under `default`.
 */
function refusalsOf(operation: ApiOperation): OpenApiOperation["responses"] {
  const refusals: OpenApiOperation["responses"] = {};
  const write = operation.method !== "GET";
  const signedIn = operation.action !== "public";
  // A permission every role holds refuses nobody.
  const someRoleLacks = signedIn && rolesAllowed(operation.action as Action).length < ALL_ROLES.length;
  if (signedIn) refusals["401"] = problem("Not signed in (no session cookie, or an expired one).");
  if (someRoleLacks || write) {
    const why = [
      someRoleLacks ? `the signed-in role lacks the permission \`${operation.action}\`` : null,
      write ? "the write came from another origin" : null,
    ];
    refusals["403"] = problem(`Refused: ${why.filter(Boolean).join(", or ")}.`);
  }
  if (operation.auth === "metricsToken") refusals["401"] = problem("No bearer token, or not the METRICS_TOKEN setting.");
  // Every write's body is read up to the limit, whether or not the operation takes one.
  if (write) refusals["413"] = problem("The body is larger than the operation accepts.");
  if (operation.body && !operation.bodyReadByHandler) refusals["415"] = problem("The body is not declared `application/json`.");
  // Every handler refuses text that cannot be stored (NUL, lone surrogates) in its path and query.
  refusals["422"] = problem("Invalid input: `errors` names each field and why (nothing was changed).");
  return refusals;
}

function operationOf(operation: ApiOperation): OpenApiOperation {
  const pathParameters = parametersOf(operation.params, "path");
  // A path segment the handler does not parse (next-auth's catch-all) is still a parameter.
  for (const name of pathParameterNames(operation.path)) {
    if (!pathParameters.some((parameter) => parameter.name === name))
      pathParameters.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  const { response } = operation;
  const contentType = response.contentType ?? "application/json";
  const successContent = response.schema
    ? { [contentType]: { schema: refOrInline(response.schema) } }
    : contentType !== "application/json"
      ? { [contentType]: { schema: { type: "string" } } }
      : undefined;
  const security = operation.auth ? [{ [operation.auth]: [] }] : operation.action === "public" ? [] : [{ sessionCookie: [] }];
  return {
    operationId: `${operation.method.toLowerCase()}${operation.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase())}`,
    summary: operation.summary,
    tags: [operation.tag],
    "x-permission": operation.action,
    parameters: [...pathParameters, ...parametersOf(operation.query, "query")],
    ...(operation.body
      ? { requestBody: { required: !operation.bodyReadByHandler, content: { "application/json": { schema: refOrInline(operation.body) } } } }
      : {}),
    responses: {
      [String(response.status)]: { description: response.description, ...(successContent ? { content: successContent } : {}) },
      ...refusalsOf(operation),
      ...Object.fromEntries(
        (operation.alsoAnswers ?? []).map((other) => [
          String(other.status),
          { description: other.description, ...(other.schema ? { content: { "application/json": { schema: refOrInline(other.schema) } } } : {}) },
        ]),
      ),
      default: { $ref: "#/components/responses/Problem" } as never,
    },
    security,
  };
}

/** The dashboard's API as an OpenAPI 3.1 document, built from the schemas the route handlers parse with. */
export function buildApiDocument(config: Config = getConfig()): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of apiOperations) (paths[operation.path] ??= {})[operation.method.toLowerCase()] = operationOf(operation);
  return {
    openapi: "3.1.0",
    info: {
      title: "Location Sync dashboard API",
      version: "1",
      description:
        "The API the dashboard's pages use. Sign in first (next-auth session cookie); writes must come from the dashboard's own origin. Errors are application/problem+json.",
    },
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(Object.entries(apiSchemas).map(([name, schema]) => [name, jsonSchemaOf(schema)])),
        Problem: {
          type: "object",
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            code: { type: "string" },
            errors: { type: "array", items: { type: "object", properties: { field: { type: "string" }, reason: { type: "string" } } } },
          },
        },
      },
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          // next-auth names it so when the public origin is https (auth-options.ts: useSecureCookies).
          name: `${publicOriginIsHttps(config) ? "__Secure-" : ""}next-auth.session-token`,
          description: "The dashboard's sign-in session.",
        },
        metricsToken: { type: "http", scheme: "bearer", description: "The METRICS_TOKEN setting." },
      },
      responses: {
        Problem: {
          description: "A refusal or an error (RFC 9457 problem details)",
          content: {
            "application/problem+json": {
              schema: { $ref: "#/components/schemas/Problem" },
            },
          },
        },
      },
    },
  };
}
