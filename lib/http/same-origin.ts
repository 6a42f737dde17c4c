const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests a browser sent from another site: the Origin
 * (or, without it, Sec-Fetch-Site) must name this host. Non-browser clients that
 * send neither (the CLI, curl) are not a CSRF vector and pass.
 */
export function isCrossOriginWrite(method: string, headers: Headers): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = headers.get("origin");
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
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
