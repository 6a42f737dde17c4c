// GET /api/environments/[name] – one environment (masked) · PUT – change its settings and credentials
import { getDatabase } from "@/db/client";
import { EnvironmentNameParams, EnvironmentUpdateInput } from "@/lib/environments/environment-inputs";
import { getEnvironmentView } from "@/lib/environments/get-environment-view";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "environments.manage", params: EnvironmentNameParams }, async ({ actor, params }) => ({
  environment: await getEnvironmentView({ db: getDatabase(), actor }, params),
}));

export const PUT = routeHandler(
  { action: "environments.manage", params: EnvironmentNameParams, body: EnvironmentUpdateInput },
  async ({ actor, params, body }) => ({
    environment: await updateEnvironment({ db: getDatabase(), actor }, { name: params.name, settings: body }),
  }),
);
