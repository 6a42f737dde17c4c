import type { OperationContext } from "@/lib/operations/context";
import type { EnvironmentName, EnvironmentView } from "./environment-inputs";
import { updateEnvironment } from "./update-environment";

/** What a sandbox issued to one client of the upstream (lib/sandbox/provision.ts, its test fixtures). */
export interface SandboxCredentials {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  dataSourceName: string;
}

/**
 * Points an environment at a sandbox: its API address, its upload origin as the one upload host, and the credentials
 * the sandbox issued (the demo start, tests and benches). `tokensMoveToNewAddress`: the same sandbox on a new address.
 */
export function pointEnvironmentAtSandbox(
  ctx: OperationContext,
  input: { name: EnvironmentName; apiBaseUrl: string; uploadOrigin: string; credentials: SandboxCredentials; tokensMoveToNewAddress?: boolean },
): Promise<EnvironmentView> {
  const { clientId, clientSecret, apiKey, dataSourceName } = input.credentials;
  return updateEnvironment(ctx, {
    name: input.name,
    settings: {
      baseUrl: input.apiBaseUrl,
      uploadHosts: [new URL(input.uploadOrigin).host],
      clientId,
      dataSourceName,
      apiKey,
      clientSecret,
      ...(input.tokensMoveToNewAddress ? { tokensMoveToNewAddress: true } : {}),
    },
  });
}
