-- A preview run's lease (lib/preview/preview-run-lease.ts): renewed by the process computing it, so that a run whose
-- process died (kill -9, an interrupted CLI, a session's worker) is found and failed instead of blocking the location's
-- later runs and sessions. Runs in flight from before have no lease and count as stopped.
ALTER TABLE "preview_runs" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "fencing_token" integer DEFAULT 0 NOT NULL;