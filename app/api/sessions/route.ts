// GET /api/sessions – sessions across the locations the viewer may see: running first, then failures needing attention, then newest
import { getDatabase } from "@/db/client";
import { FleetSessionQuery } from "@/lib/fleet/fleet-inputs";
import { listFleetSessions } from "@/lib/fleet/list-fleet-sessions";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "session.view", query: FleetSessionQuery }, async ({ user, query }) =>
  listFleetSessions({ db: getDatabase(), actor: user }, query),
);
