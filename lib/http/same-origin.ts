const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The last value of a comma-separated forwarded header: the one our own proxy set or appended. */
export function lastForwardedValue(value: string | null | undefined): string | undefined {
  const last = value?.split(",").at(-1)?.trim();
  return last || undefined;
}

/**
 * Refuses state-changing requests a browser sent from another site: the Origin
 * (or, without it, Sec-Fetch-Site) must name this host. Non-browser clients that
 * send neither (the CLI, curl) are not a CSRF vector and pass. X-Forwarded-Host
 * names the host only behind our own proxy (TRUST_PROXY): anyone can send it.
 */
export function isCrossOriginWrite(method: string, headers: Headers, options: { trustProxy: boolean }): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = headers.get("origin");
  const host = (options.trustProxy ? lastForwardedValue(headers.get("x-forwarded-host")) : undefined) ?? headers.get("host");
  if (origin && origin !== "null") {
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  if (origin === "null") return true;
  const site = headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}
