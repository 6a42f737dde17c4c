ALTER TABLE "sandbox"."uploads" ADD COLUMN "body_sha256" text;--> statement-breakpoint
ALTER TABLE "sync_attempts" ADD COLUMN "body_sha256" text;