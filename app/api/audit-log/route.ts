// GET /api/audit-log – audit entries, newest first, filtered, keyset-paginated
import { getDatabase } from "@/db/client";
import { AuditLogQuery, listAuditEvents } from "@/lib/audit/list-audit-events";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "audit.view", query: AuditLogQuery }, async ({ actor, query }) =>
  listAuditEvents({ db: getDatabase(), actor }, query),
);
