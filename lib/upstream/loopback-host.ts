/** localhost, 127.x.x.x or [::1]: an address on this machine (no runtime imports: client components use it). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}
