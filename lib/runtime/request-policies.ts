import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { isCrossOriginWrite } from "@/lib/http/same-origin";
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

function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return request.socket.remoteAddress ?? "unknown";
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
  // The sandbox simulates another company's API; it is not part of our session-cookie surface.
  if (!url.startsWith("/sandbox/") && isCrossOriginWrite(request.method ?? "GET", headers)) {
    response.statusCode = 403;
    response.setHeader("content-type", "application/problem+json");
    response.end(JSON.stringify({ type: "about:blank", title: "Forbidden", status: 403, detail: "Cross-origin requests may not change anything.", code: "CROSS_ORIGIN" }));
    return false;
  }
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
