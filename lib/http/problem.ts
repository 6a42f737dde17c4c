import type { ZodError } from "zod";
import { DomainError, httpStatusOf, type FieldProblem } from "@/lib/errors/domain-error";

const titles: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  422: "Invalid input",
  429: "Too many attempts",
  500: "Internal error",
  502: "Upstream error",
  503: "Upstream unavailable",
};

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
  // Never leak an internal message: it may hold anything.
  console.error("Unhandled error in route handler:", error instanceof Error ? error.name : typeof error);
  return problemResponse(500, "Something went wrong on our side. It has been logged.");
}
