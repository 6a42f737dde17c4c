import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { promises as dns } from "node:dns";
import net from "node:net";
import { Agent, type Dispatcher } from "undici";
import { getConfig, type Config } from "@/lib/config/config";

/**
 * Addresses an alert webhook may not reach unless ALERT_WEBHOOK_ALLOW_PRIVATE=true: the non-global blocks of the IANA
 * special-purpose registries (loopback, private, shared, link-local incl. cloud metadata, unique-local, multicast,
 * unspecified, documentation, benchmarking, reserved). Node's BlockList also matches IPv4-mapped IPv6 forms.
 */
const nonPublic = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}

export function privateWebhookTargetsAllowed(config: Config = getConfig()): boolean {
  return config.ALERT_WEBHOOK_ALLOW_PRIVATE;
}

/** True for an address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A webhook target we will not send to; the message names the host only (the URL may hold a token). */
export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookTargetError";
  }
}

const refusal = (host: string, address: string) =>
  new WebhookTargetError(
    `The alert webhook host ${host} resolves to ${address}, a loopback, private or link-local address; alerts go only to public addresses (ALERT_WEBHOOK_ALLOW_PRIVATE=true allows others).`,
  );

function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Save time: a host that resolves to a non-public address is refused. One that does not resolve now is let through
 * (DNS may be down for a moment); the check at send time is the one that counts.
 */
export async function checkWebhookTarget(url: string, config: Config = getConfig()): Promise<void> {
  if (privateWebhookTargetsAllowed(config)) return;
  const parsed = new URL(url);
  const hostname = hostnameOf(parsed);
  const addresses = net.isIP(hostname)
    ? [hostname]
    : await dns.lookup(hostname, { all: true, verbatim: true }).then(
        (entries) => entries.map((entry) => entry.address),
        () => [],
      );
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked) throw refusal(parsed.host, blocked);
}

/**
 * Send time: a dispatcher whose connections resolve the host, refuse it when any address is not public, and connect to
 * exactly the addresses that were checked, so a DNS answer that changes between check and connect cannot swap them.
 */
export function createWebhookDispatcher(config: Config = getConfig()): Dispatcher {
  if (privateWebhookTargetsAllowed(config)) return new Agent({ connect: { timeout: 10_000 } });
  function lookup(hostname: string, options: LookupAllOptions | number | object, callback: (...args: unknown[]) => void) {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
      if (blocked) return callback(refusal(hostname, blocked.address));
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }
  return new Agent({ connect: { timeout: 10_000, lookup: lookup as unknown as typeof dnsLookup } });
}

/** An address written into the URL is never looked up by the connection: checked here instead. */
export function checkLiteralWebhookAddress(url: URL, config: Config = getConfig()): void {
  if (privateWebhookTargetsAllowed(config)) return;
  const hostname = hostnameOf(url);
  if (net.isIP(hostname) && !isPublicAddress(hostname)) throw refusal(url.host, hostname);
}
