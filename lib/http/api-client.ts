import type { FieldProblem } from "@/lib/errors/domain-error";

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; detail: string; fieldErrors: Record<string, string> };

/** Browser-side JSON calls to our route handlers; problem+json becomes a message and per-field errors. */
export async function callApi<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, detail: "The dashboard could not be reached. Check your connection and try again.", fieldErrors: {} };
  }
  const payload = await response.json().catch(() => ({}));
  if (response.ok) return { ok: true, data: payload as T };
  const errors = (payload.errors ?? []) as FieldProblem[];
  return {
    ok: false,
    status: response.status,
    detail: typeof payload.detail === "string" ? payload.detail : `Request failed (${response.status}).`,
    fieldErrors: Object.fromEntries(errors.map((error) => [error.field, error.reason])),
  };
}
