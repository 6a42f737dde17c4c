// POST /api/environments/[name]/credentials-test – check the environment's credentials with one owner login (never kept)
import { getDatabase } from "@/db/client";
import { CredentialsTestInput, EnvironmentNameParams } from "@/lib/environments/environment-inputs";
import { testEnvironmentCredentials } from "@/lib/environments/test-environment-credentials";
import { routeHandler } from "@/lib/http/route-handler";

export const POST = routeHandler(
  { action: "environments.manage", params: EnvironmentNameParams, body: CredentialsTestInput },
  async ({ actor, params, body }) => testEnvironmentCredentials({ db: getDatabase(), actor }, { name: params.name, ...body }),
);
