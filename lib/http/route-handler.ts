import type { z } from "zod";
import { requireApiUser, type CurrentUser } from "@/lib/auth/guard";
import type { Action, OperationActor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { findUnstorableText, unsafeCharacterMessage } from "@/lib/validation/safe-text";
import { clientAddressFromHeaders, trustsProxy } from "./client-address";
import { fieldProblemsOf, problemFromError, problemResponse } from "./problem";
import { DEFAULT_MAX_BODY_BYTES, readBodyBytes, readJsonBody } from "./request-body";
import { isCrossOriginWrite } from "./same-origin";

type Schema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteSpec<P extends Schema | undefined, B extends Schema | undefined, Q extends Schema | undefined> {
  /**
   * The action the handler takes (lib/auth/permissions); every handler names one (no default). A role the table
   * does not allow it is refused with 403 before anything is parsed; the operation checks again, with the
   * location. "public" = no sign-in (invite links).
   */
  action: Action | "public";
  params?: P;
  body?: B;
  query?: Q;
  /** The largest body accepted, in bytes (default DEFAULT_MAX_BODY_BYTES); a larger one is refused with 413 before it is parsed. */
  maxBodyBytes?: number;
}

export interface RouteArgs<P, B, Q, U = CurrentUser, A = OperationActor> {
  request: Request;
  user: U;
  /** The caller as operations take it: role for their permission check, id, email and address for the audit log. */
  actor: A;
  clientAddress: string;
  params: P;
  body: B;
  query: Q;
}

const routeSpecKey = Symbol("routeSpec");

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one adapter every route handler uses: same-origin check for writes →
 * caller and the role's permission for the action → zod-parsed params, query and body (size-limited, and never
 * with NUL or lone surrogates, which no query may see) → the lib/ call → JSON or
 * problem+json. No business logic lives here.
 */
export function routeHandler<
  P extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
>(spec: RouteSpec<P, B, Q>, handle: (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>>) => Promise<Response | unknown>) {
  return publicRouteHandler(
    spec,
    handle as (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>, CurrentUser | null, OperationActor | null>) => Promise<Response | unknown>,
  );
}

/** Like routeHandler, but with `action: "public"` the caller may be signed out (user and actor are null). */
export function publicRouteHandler<
  P extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
>(
  spec: RouteSpec<P, B, Q>,
  handle: (args: RouteArgs<Infer<P>, Infer<B>, Infer<Q>, CurrentUser | null, OperationActor | null>) => Promise<Response | unknown>,
) {
  const handler = async (request: Request, context: NextContext): Promise<Response> => {
    try {
      if (isCrossOriginWrite(request.method, request.headers, { trustProxy: trustsProxy() })) {
        return problemResponse(403, "Cross-origin requests may not change anything.", { code: "CROSS_ORIGIN" });
      }
      const user = spec.action === "public" ? null : await requireApiUser({ action: spec.action });
      const clientAddress = clientAddressFromHeaders(request.headers);
      const rawParams = (await context.params) ?? {};
      const rawQuery = Object.fromEntries(new URL(request.url).searchParams);
      refuseUnstorableText(rawParams);
      refuseUnstorableText(rawQuery);
      const params = spec.params ? parseOrThrow(spec.params, rawParams) : undefined;
      const query = spec.query ? parseOrThrow(spec.query, rawQuery) : undefined;
      const maxBodyBytes = spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      let body: unknown;
      let forwarded = request;
      if (spec.body) {
        const json = await readJsonBody(request, maxBodyBytes);
        refuseUnstorableText(json);
        body = parseOrThrow(spec.body, json);
      } else if (request.body && request.method !== "GET" && request.method !== "HEAD") {
        // A handler that reads its own (optional) body still gets no more than the limit.
        forwarded = new Request(request.url, { method: request.method, headers: request.headers, body: await readBodyBytes(request, maxBodyBytes) });
      }
      const result = await handle({
        request: forwarded,
        user,
        actor: user && { id: user.id, email: user.email, role: user.role, clientAddress },
        clientAddress,
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
  // The API document (lib/api-docs) is checked against the spec each handler was made from.
  return Object.assign(handler, { [routeSpecKey]: spec as RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined> });
}

/** The spec a handler made by routeHandler/publicRouteHandler was made from; undefined for any other function. */
export function routeSpecOf(handler: unknown): RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined> | undefined {
  return typeof handler === "function" && routeSpecKey in handler
    ? (handler as unknown as Record<symbol, RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined>>)[routeSpecKey]
    : undefined;
}

function parseOrThrow<S extends Schema>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields = fieldProblemsOf(parsed.error);
    throw new DomainError("INVALID", fields.map((f) => `${f.field}: ${f.reason}`).join("; "), fields);
  }
  return parsed.data;
}

/** NUL and lone surrogates are refused in any input, whatever its schema: PostgreSQL would fail on them (a 500). */
function refuseUnstorableText(value: unknown): void {
  const unstorable = findUnstorableText(value);
  if (!unstorable) return;
  const reason = unsafeCharacterMessage(unstorable.found);
  throw new DomainError("INVALID", `${unstorable.path}: ${reason}`, [{ field: unstorable.path, reason }]);
}
