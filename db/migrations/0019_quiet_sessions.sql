ALTER TABLE "sync_sessions" ADD COLUMN "source_state" jsonb;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD COLUMN "quiet" boolean DEFAULT false NOT NULL;