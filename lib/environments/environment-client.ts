import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from "@/lib/upstream/client";
import type { EnvironmentCredentials } from "./get-environment-credentials";

/** The upstream client for one environment's credentials; `overrides` tune timeouts and retries per use. */
export function createEnvironmentClient(credentials: EnvironmentCredentials, overrides: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return createUpstreamClient({
    baseUrl: credentials.baseUrl,
    apiKey: credentials.apiKey,
    uploadHosts: credentials.uploadHosts,
    dateTimeStyle: credentials.dateTimeStyle,
    ...overrides,
  });
}
