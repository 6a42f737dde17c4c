export interface SandboxErrorDetail {
  index?: number;
  field?: string;
  reason: string;
}

/** A rejection the sandbox answers as `{"error":{"code","message","details"}}`; never carries a secret. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: SandboxErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(error: SandboxError): Response {
  return jsonResponse(
    error.status,
    { error: { code: error.code, message: error.message, details: error.details } },
    error.headers,
  );
}

/** The first detail as one line, for the request log. */
export function describeError(error: SandboxError): string {
  const first = error.details[0];
  if (!first) return error.message;
  const where = [first.index === undefined ? undefined : `[${first.index}]`, first.field].filter(Boolean).join(" ");
  return `${error.message} (${where ? where + ": " : ""}${first.reason}${error.details.length > 1 ? `, +${error.details.length - 1} more` : ""})`;
}
