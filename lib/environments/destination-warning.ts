import { isLoopbackHost } from "@/lib/upstream/loopback-host";
import type { EnvironmentName } from "./environment-inputs";

/**
 * Why a production environment's address looks wrong: it points at this machine (the sandbox, a tunnel) or uses
 * plain http, so keys and tokens would travel unencrypted. Staging may do either; null when nothing is wrong.
 */
export function productionDestinationWarning(environment: EnvironmentName, baseUrl: string): string | null {
  if (environment !== "production") return null;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null;
  }
  if (isLoopbackHost(url.hostname))
    return `Production points at ${url.host}, an address on this machine: real locations would sync to it, not to the Marketing Automation Service.`;
  if (url.protocol === "http:")
    return "Production uses plain http: the API key, client secret and location tokens would travel unencrypted. Use https.";
  return null;
}
