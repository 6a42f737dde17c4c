ALTER TABLE "preview_runs" ADD COLUMN "counted_at" timestamp with time zone;--> statement-breakpoint
-- Runs counted before this column existed were counted when they finished.
UPDATE "preview_runs" SET "counted_at" = "finished_at" WHERE "counts" IS NOT NULL;
