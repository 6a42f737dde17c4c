ALTER TABLE "locations" ADD COLUMN "full_sync_reason" text;--> statement-breakpoint
ALTER TABLE "sandbox"."environments" ADD COLUMN "response_shape" text DEFAULT 'documented' NOT NULL;--> statement-breakpoint
ALTER TABLE "preview_records" ADD COLUMN "dropped_references" jsonb;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "rebuild" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD COLUMN "removal_stop" jsonb;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD COLUMN "confirmed_removals" jsonb;