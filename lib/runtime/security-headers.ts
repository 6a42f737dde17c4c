import { randomBytes } from "node:crypto";
import { getConfig, type Config } from "@/lib/config/config";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const staticSecurityHeaders: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/** Two years, subdomains included; preloading is the operator's own decision. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** The public origin (NEXTAUTH_URL, else APP_ORIGIN) is https: browsers reach this app over TLS, wherever it ends. */
export function publicOriginIsHttps(config: Config = getConfig()): boolean {
  return (config.NEXTAUTH_URL ?? config.APP_ORIGIN ?? "").toLowerCase().startsWith("https://");
}

/** This request came over https: TLS on our own socket, or (only behind a trusted proxy) X-Forwarded-Proto. */
export function isHttpsRequest(request: { socket: unknown; headers: Record<string, string | string[] | undefined> }, trustProxy: boolean): boolean {
  if ((request.socket as { encrypted?: boolean } | null)?.encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers["x-forwarded-proto"];
  return (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase() === "https";
}

/** A Set-Cookie value with the Secure attribute. */
export function withSecureAttribute(cookie: string): string {
  return /;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`;
}
