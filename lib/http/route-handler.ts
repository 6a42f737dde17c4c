import type { z } from "zod";
import { requireApiUser, type CurrentUser } from "@/lib/auth/guard";
import type { Role } from "@/lib/auth/roles";
import { DomainError } from "@/lib/errors/domain-error";
import { clientAddressFromHeaders } from "./client-address";
import { fieldProblemsOf, problemFromError, problemResponse } from "./problem";
import { isCrossOriginWrite } from "./same-origin";

type Schema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteSpec<P extends Schema | undefined, B extends Schema | undefined, Q extends Schema | undefined> {
  /** Roles allowed to call; every handler names them (no default). "public" = no sign-in (invite links). */
  roles: readonly Role[] | "public";
  params?: P;
  body?: B;
  query?: Q;
}

export interface RouteArgs<P, B, Q, U = CurrentUser> {
  request: Request;
  user: U;
  clientAddress: string;
  params: P;
  body: B;
  query: Q;
}

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one adapter every route handler uses: same-origin check for writes →
 * caller and role → zod-parsed params, query and body → the lib/ call → JSON or
 * problem+json. No business logic lives here.
 */
export function routeHandler<P extends Schema | undefined = undefined, B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  spec: RouteSpec<P, B, Q>,
  handle: (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>>) => Promise<Response | unknown>,
) {
  return publicRouteHandler(spec, handle as (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>, CurrentUser | null>) => Promise<Response | unknown>);
}

/** Like routeHandler, but with `roles: "public"` the caller may be signed out (user is null). */
export function publicRouteHandler<P extends Schema | undefined = undefined, B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  spec: RouteSpec<P, B, Q>,
  handle: (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>, CurrentUser | null>) => Promise<Response | unknown>,
) {
  return async (request: Request, context: NextContext): Promise<Response> => {
    try {
      if (isCrossOriginWrite(request.method, request.headers)) {
        return problemResponse(403, "Cross-origin requests may not change anything.", { code: "CROSS_ORIGIN" });
      }
      const user = spec.roles === "public" ? null : await requireApiUser({ roles: spec.roles });
      const params = spec.params ? parseOrThrow(spec.params, await context.params) : undefined;
      const query = spec.query ? parseOrThrow(spec.query, Object.fromEntries(new URL(request.url).searchParams)) : undefined;
      const body = spec.body ? parseOrThrow(spec.body, await readJson(request)) : undefined;
      const result = await handle({
        request,
        user,
        clientAddress: clientAddressFromHeaders(request.headers),
        params: params as Infer<P>,
        body: body as Infer<B>,
        query: query as Infer<Q>,
      });
      if (result instanceof Response) return result;
      return Response.json(result ?? { ok: true }, { headers: { "cache-control": "no-store" } });
    } catch (error) {
      return problemFromError(error);
    }
  };
}

function parseOrThrow<S extends Schema>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields = fieldProblemsOf(parsed.error);
    throw new DomainError("INVALID", fields.map((f) => `${f.field}: ${f.reason}`).join("; "), fields);
  }
  return parsed.data;
}

async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) throw new DomainError("INVALID", "Send a JSON body (Content-Type: application/json).", [{ field: "(body)", reason: "must be JSON" }]);
  try {
    return await request.json();
  } catch {
    throw new DomainError("INVALID", "The body is not valid JSON.", [{ field: "(body)", reason: "not valid JSON" }]);
  }
}
