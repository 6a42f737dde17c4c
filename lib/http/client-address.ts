import { getConfig } from "@/lib/config/config";

/**
 * The caller's address as lib/runtime/server.ts stamped it on the request
 * (from the socket, or from X-Forwarded-For only when TRUST_PROXY is set).
 * Any client-sent value of this header is overwritten there.
 */
export const CLIENT_ADDRESS_HEADER = "x-location-sync-client-address";

/** TRUST_PROXY=true: the server runs behind the operator's own proxy, so its X-Forwarded-* headers count. */
export function trustsProxy(): boolean {
  return getConfig().TRUST_PROXY;
}

export function clientAddressFromHeaders(headers: Headers | Record<string, unknown>): string {
  const value = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value ? value : "unknown";
}
