-- The upstream location a sync session talks to (with its environment): a later session inherits an open upstream
-- session only from one of the same upstream location, and Close upstream session refuses another one. Sessions from
-- before: the location's own ID when in the same environment; one left open, the ID its open request named.
ALTER TABLE "sync_sessions" ADD COLUMN "upstream_location_id" text;--> statement-breakpoint
UPDATE "sync_sessions" s SET "upstream_location_id" = l."upstream_location_id"
  FROM "locations" l WHERE l."id" = s."location_id" AND l."environment" = s."environment";--> statement-breakpoint
UPDATE "sync_sessions" s SET "upstream_location_id" = opened."id"
  FROM (SELECT DISTINCT ON (a."session_id") a."session_id", substring(a."path" from '/locations/([^/%?]+)/update_management_system$') AS "id"
    FROM "sync_attempts" a JOIN "sync_sessions" o ON o."id" = a."session_id" AND o."upstream_open"
    WHERE a."path" ~ '/locations/[^/%?]+/update_management_system$' ORDER BY a."session_id", a."id") opened
  WHERE s."id" = opened."session_id";
