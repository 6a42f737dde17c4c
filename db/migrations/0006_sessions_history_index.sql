DROP INDEX "sync_sessions_location_idx";--> statement-breakpoint
CREATE INDEX "sync_sessions_location_idx" ON "sync_sessions" USING btree ("location_id","created_at" DESC NULLS LAST,"id");