// GET /api/health – for load balancers: 200 when the database answers and every migration is applied, else 503
import { getDatabase } from "@/db/client";
import { publicRouteHandler } from "@/lib/http/route-handler";
import { healthResponse } from "@/lib/runtime/health";

// Answered per request, never prerendered or cached.
export const dynamic = "force-dynamic";

export const GET = publicRouteHandler({ action: "public" }, async () => healthResponse(getDatabase()));
