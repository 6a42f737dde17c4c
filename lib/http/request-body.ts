import { DomainError } from "@/lib/errors/domain-error";
import { RequestRefusal } from "./problem";

/** Every route handler's body limit unless its spec declares another: our JSON inputs are a few hundred bytes. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export function bodyTooLarge(maxBytes: number): RequestRefusal {
  return new RequestRefusal(413, "BODY_TOO_LARGE", `The request body is larger than ${formatBytes(maxBytes)}.`);
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/**
 * The body's bytes, read as a stream that stops (and cancels the rest) as soon as it
 * passes `maxBytes`: a client that lies about Content-Length, or sends none (chunked),
 * still cannot make the server hold more than the limit.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * JSON means the media type application/json (parameters such as charset allowed), exactly:
 * `text/plain; application/json` is what a cross-site form may send without a preflight.
 */
export function isJsonContentType(header: string | null): boolean {
  return header?.split(";", 1)[0]!.trim().toLowerCase() === "application/json";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The parsed JSON body: 415 unless it is declared JSON, 413 past the limit, 422 unless it is UTF-8 JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new RequestRefusal(415, "UNSUPPORTED_MEDIA_TYPE", "Send a JSON body (Content-Type: application/json).", [
      { field: "(body)", reason: "must be JSON" },
    ]);
  }
  const bytes = await readBodyBytes(request, maxBytes);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new DomainError("INVALID", "The body is not valid UTF-8.", [{ field: "(body)", reason: "not valid UTF-8" }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError("INVALID", "The body is not valid JSON.", [{ field: "(body)", reason: "not valid JSON" }]);
  }
}
