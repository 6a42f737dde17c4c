import type { ZodError } from "zod";
import { DomainError, httpStatusOf, type FieldProblem } from "@/lib/errors/domain-error";
import { describeErrorForLog } from "@/lib/logging/safe-error";

const titles: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Content too large",
  415: "Unsupported media type",
  422: "Invalid input",
  429: "Too many attempts",
  500: "Internal error",
  502: "Upstream error",
  503: "Upstream unavailable",
};

/** A request refused before any operation ran (its size, media type or method): HTTP's business, not the domain's. */
export class RequestRefusal extends Error {
  constructor(
    readonly status: 400 | 405 | 413 | 415,
    readonly code: string,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = "RequestRefusal";
  }
}

/** An RFC 9457 problem+json response. */
export function problemResponse(status: number, detail: string, extra: { errors?: FieldProblem[]; code?: string; retryAfterSeconds?: number } = {}) {
  const headers = new Headers({ "content-type": "application/problem+json", "cache-control": "no-store" });
  if (extra.retryAfterSeconds !== undefined) headers.set("retry-after", String(extra.retryAfterSeconds));
  return new Response(
    JSON.stringify({ type: "about:blank", title: titles[status] ?? "Error", status, detail, code: extra.code, errors: extra.errors }),
    { status, headers },
  );
}

export function fieldProblemsOf(error: ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", reason: issue.message }));
}

export function problemFromError(error: unknown): Response {
  if (error instanceof DomainError) {
    return problemResponse(httpStatusOf[error.code], error.message, {
      code: error.code,
      errors: error.fields.length ? error.fields : undefined,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  if (error instanceof RequestRefusal) {
    return problemResponse(error.status, error.message, { code: error.code, errors: error.fields.length ? error.fields : undefined });
  }
  // The caller gets a fixed sentence and the log the error's class and code: its message may hold a query's parameters.
  console.error(`Unhandled error in route handler: ${describeErrorForLog(error)}`);
  return problemResponse(500, "Something went wrong on our side. It has been logged.");
}
