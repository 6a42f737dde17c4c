import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { isCrossOriginWrite, lastForwardedValue } from "@/lib/http/same-origin";
import {
  contentSecurityPolicy,
  createNonce,
  isHttpsRequest,
  publicOriginIsHttps,
  STRICT_TRANSPORT_SECURITY,
  staticSecurityHeaders,
  withSecureAttribute,
} from "./security-headers";

export const PATH_HEADER = "x-location-sync-path";

// Headers only this server may set; a client's copy is dropped before Next sees the request.
const INTERNAL_HEADERS = [CLIENT_ADDRESS_HEADER, PATH_HEADER, "x-middleware-subrequest", "content-security-policy", "x-nonce"];
// What a proxy tells about the original request; without TRUST_PROXY anyone could have sent them,
// so they are dropped (Next then derives host and scheme from the connection itself).
const FORWARDED_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];
const SUPPORTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The address our proxy saw: the last X-Forwarded-For entry (earlier ones are whatever the client sent). */
function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"];
    const last = lastForwardedValue(Array.isArray(forwarded) ? forwarded.join(",") : forwarded);
    if (last) return last;
  }
  return request.socket.remoteAddress ?? "unknown";
}

function refuse(response: ServerResponse, status: number, title: string, detail: string, code: string, headers: Record<string, string> = {}): false {
  response.statusCode = status;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.setHeader("content-type", "application/problem+json");
  response.end(JSON.stringify({ type: "about:blank", title, status, detail, code }));
  return false;
}

/** Whether every path segment is valid percent-encoded UTF-8: Next.js answers 500 when it cannot decode a dynamic segment. */
function hasDecodablePath(url: string): boolean {
  try {
    for (const segment of new URL(url, "http://path.invalid").pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Next.js answers a method a route handler does not export with a bare 405; ours are
 * problem+json like every other refusal. The type is set when the head is written and the
 * body when the response ends empty: Next's compression layer writes the head itself first.
 */
function answerBareMethodRefusalsAsProblems(request: IncomingMessage, response: ServerResponse): void {
  if (request.method === "HEAD") return;
  let bare = false;
  const claimBare = () => {
    if (response.statusCode !== 405 || response.headersSent || response.hasHeader("content-type")) return;
    response.setHeader("content-type", "application/problem+json");
    bare = true;
  };
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((...args: unknown[]) => {
    if (typeof args[0] === "number") response.statusCode = args[0];
    if (args.length <= 2 && (typeof args[1] !== "object" || args[1] === null)) claimBare();
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    claimBare();
    if (bare && (args[0] === undefined || args[0] === null || typeof args[0] === "function")) {
      bare = false;
      const detail = `${request.method} is not supported here.`;
      return end(JSON.stringify({ type: "about:blank", title: "Method not allowed", status: 405, detail, code: "METHOD_NOT_ALLOWED" }));
    }
    return end(...args);
  }) as ServerResponse["end"];
}

/**
 * Applied to every request before Next.js: security headers with a per-request
 * CSP nonce (Next.js reads it from the request's CSP header), no caching of
 * anything but build assets, the caller's address, and refusal of cross-origin
 * writes. Returns false when the request was answered here.
 */
export function applyRequestPolicies(request: IncomingMessage, response: ServerResponse, options: { dev: boolean; trustProxy: boolean }): boolean {
  for (const name of INTERNAL_HEADERS) delete request.headers[name];
  const url = request.url ?? "/";
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(request, options.trustProxy);
  if (!options.trustProxy) for (const name of FORWARDED_HEADERS) delete request.headers[name];
  request.headers[PATH_HEADER] = url;

  const nonce = createNonce();
  const csp = contentSecurityPolicy(nonce, options);
  request.headers["content-security-policy"] = csp;
  request.headers["x-nonce"] = nonce;
  response.setHeader("content-security-policy", csp);
  for (const [name, value] of Object.entries(staticSecurityHeaders)) response.setHeader(name, value);
  if (!url.startsWith("/_next/static/")) response.setHeader("cache-control", "private, no-store, max-age=0");
  if (isHttpsRequest(request, options.trustProxy) || publicOriginIsHttps()) {
    response.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    secureEveryCookie(response);
  }

  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
  const method = request.method ?? "GET";
  // TRACE, CONNECT and other methods no page or handler serves (Next.js would answer TRACE with a 500).
  if (!SUPPORTED_METHODS.has(method)) {
    return refuse(response, 405, "Method not allowed", `${method} is not supported.`, "METHOD_NOT_ALLOWED", {
      allow: [...SUPPORTED_METHODS].join(", "),
    });
  }
  if (!hasDecodablePath(url)) return refuse(response, 400, "Bad request", "The address is not valid percent-encoded UTF-8.", "BAD_PATH");
  // The sandbox simulates another company's API; it is not part of our session-cookie surface.
  if (!url.startsWith("/sandbox/") && isCrossOriginWrite(method, headers, { trustProxy: options.trustProxy })) {
    return refuse(response, 403, "Forbidden", "Cross-origin requests may not change anything.", "CROSS_ORIGIN");
  }
  if (url.startsWith("/api/")) answerBareMethodRefusalsAsProblems(request, response);
  return true;
}

/**
 * Served over https, no cookie may travel over plain http: every Set-Cookie gets Secure, however it was set (setHeader,
 * appendHeader, or headers handed to writeHead, which Node also calls implicitly before the first byte).
 */
function secureEveryCookie(response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const current = this.getHeader("set-cookie");
    if (current !== undefined) this.setHeader("set-cookie", (Array.isArray(current) ? current : [String(current)]).map(withSecureAttribute));
    const headers = args.find((arg, index) => index > 0 && typeof arg === "object" && arg !== null);
    if (Array.isArray(headers)) {
      for (let index = 0; index + 1 < headers.length; index += 2) {
        if (String(headers[index]).toLowerCase() === "set-cookie") headers[index + 1] = withSecureAttribute(String(headers[index + 1]));
      }
    } else if (headers) {
      const record = headers as Record<string, unknown>;
      for (const name of Object.keys(record)) {
        if (name.toLowerCase() !== "set-cookie") continue;
        const value = record[name];
        record[name] = Array.isArray(value) ? value.map((cookie) => withSecureAttribute(String(cookie))) : withSecureAttribute(String(value));
      }
    }
    return writeHead.apply(this, args as Parameters<ServerResponse["writeHead"]>);
  } as ServerResponse["writeHead"];
}
