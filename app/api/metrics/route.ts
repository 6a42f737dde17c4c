// GET /api/metrics – Prometheus metrics, computed from the database at scrape time (bearer token METRICS_TOKEN; 404 without one)
import { getDatabase } from "@/db/client";
import { publicRouteHandler } from "@/lib/http/route-handler";
import { scrapeMetrics } from "@/lib/metrics/scrape-metrics";

export const dynamic = "force-dynamic";

export const GET = publicRouteHandler({ action: "public" }, async ({ request }) =>
  scrapeMetrics(getDatabase(), request.headers.get("authorization")),
);
