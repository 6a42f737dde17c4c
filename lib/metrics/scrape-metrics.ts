import { createHash, timingSafeEqual } from "node:crypto";
import type { DatabaseOrTransaction } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import { problemResponse } from "@/lib/http/problem";
import { collectMetrics } from "./collect-metrics";
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from "./prometheus-text";

/** Compares digests, so the time taken says nothing about the token, not even its length. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /api/metrics: with no METRICS_TOKEN configured the endpoint does not exist (404); without the bearer token, or with
 * another, 401; else every metric in Prometheus's text format.
 */
export async function scrapeMetrics(db: DatabaseOrTransaction, authorization: string | null): Promise<Response> {
  const token = getConfig().METRICS_TOKEN;
  if (!token) return problemResponse(404, "Not found.");
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim();
  if (!given || !sameToken(given, token)) {
    const refused = problemResponse(401, "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.", { code: "METRICS_TOKEN" });
    refused.headers.set("www-authenticate", 'Bearer realm="metrics"');
    return refused;
  }
  return new Response(prometheusText(await collectMetrics(db)), {
    headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" },
  });
}
