import { callApi } from "@/lib/http/api-client";

type Method = "POST" | "PUT" | "PATCH" | "DELETE";

/** A problem+json answer as an Error: the message to show, and the reason for each field. */
export class ApiProblem extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: Record<string, string>,
  ) {
    super(message);
  }
}

/** A mutation's call to our API for React Query's useMutation: a problem throws as an ApiProblem, for the form to show. */
export async function mutateApi<T>(method: Method, url: string, body?: unknown): Promise<T> {
  const result = await callApi<T>(method, url, body);
  if (!result.ok) throw new ApiProblem(result.detail, result.status, result.fieldErrors);
  return result.data;
}
