// GET /api/fleet – a page of the locations × sync steps matrix, worst first, with each location's newest session
import { getDatabase } from "@/db/client";
import { FleetMatrixQuery } from "@/lib/fleet/fleet-inputs";
import { loadFleetMatrix } from "@/lib/fleet/fleet-matrix";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "fleet.view", query: FleetMatrixQuery }, async ({ user, query }) =>
  loadFleetMatrix({ db: getDatabase(), actor: user }, query),
);
