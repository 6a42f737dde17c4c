// GET /api/environments – both environments, secrets shown only as "set · ends in …"
import { getDatabase } from "@/db/client";
import { listEnvironmentViews } from "@/lib/environments/get-environment-view";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "environments.manage" }, async ({ actor }) => ({
  environments: await listEnvironmentViews({ db: getDatabase(), actor }),
}));
