import { redactedMarker, truncateText, type Redactor } from "./redact";

/** What the attempt history keeps of one exchange's request and response: redacted, bodies cut to a few KB. */
export interface ExchangeRecord {
  requestHeaders: Record<string, string>;
  /** Null when the body was streamed (an upload's records are not kept) or absent. */
  requestBody: string | null;
  requestBodyBytes: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseBodyBytes: number | null;
}

/** Characters of a body the history keeps. */
export const recordedBodyLimit = 4096;

// Headers whose whole value is a credential or a session, whatever it looks like.
const secretHeaderNames = /^(authorization|proxy-authorization|x-api-key|cookie|set-cookie|x-amz-security-token)$/i;

/** Headers with secret ones blanked and every value stripped of the call's known secrets (`redact`: lib/upstream/redact.ts). */
export function redactHeaders(headers: Record<string, string | string[] | undefined>, redact: Redactor): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(", ") : value;
    copy[name.toLowerCase()] = secretHeaderNames.test(name) ? redactedMarker : truncateText(redact(text), 500);
  }
  return copy;
}

/**
 * A body as the history may show it: the call's secrets and anything shaped like a credential removed, and every
 * put_data_url reduced to its host (the rest of the address is a one-time upload capability), then truncated.
 */
export function redactBody(text: string, redact: Redactor): string {
  const withoutUploadAddresses = text.replace(/("put_data_url"\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (_match, prefix: string, address: string) => {
    let host = "";
    try {
      host = `${new URL(address).host}/`;
    } catch {
      // Not a URL: nothing of it is shown.
    }
    return `${prefix}"${host}${redactedMarker}"`;
  });
  return truncateText(redact(withoutUploadAddresses), recordedBodyLimit);
}
