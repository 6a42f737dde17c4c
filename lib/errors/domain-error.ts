export type DomainErrorCode =
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "INVALID"
  | "RATE_LIMITED"
  | "UPSTREAM_AUTH"
  | "UPSTREAM_REJECTED"
  | "UPSTREAM_UNAVAILABLE"
  | "NOT_CONFIGURED";

export interface FieldProblem {
  field: string;
  reason: string;
}

/** An expected failure of an operation, safe to show: its message never holds a secret. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly fields: FieldProblem[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const httpStatusOf: Record<DomainErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID: 422,
  RATE_LIMITED: 429,
  UPSTREAM_AUTH: 502,
  UPSTREAM_REJECTED: 502,
  UPSTREAM_UNAVAILABLE: 503,
  NOT_CONFIGURED: 409,
};

export const notFound = (what = "Not found") => new DomainError("NOT_FOUND", what);
export const invalid = (field: string, reason: string) => new DomainError("INVALID", `${field}: ${reason}`, [{ field, reason }]);
