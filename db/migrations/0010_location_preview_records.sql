-- Preview records now belong to the location (a run rewrites only what changed). The stored per-run
-- records are a cache: they are dropped, and the runs that owned them can no longer be shown or sent from.
DELETE FROM "preview_issues";--> statement-breakpoint
DELETE FROM "preview_records";--> statement-breakpoint
UPDATE "preview_runs" SET "status" = 'failed', "error" = 'Superseded by an upgrade: compute the preview again.', "finished_at" = coalesce("finished_at", now());--> statement-breakpoint
ALTER TABLE "preview_issues" DROP CONSTRAINT "preview_issues_run_id_preview_runs_id_fk";--> statement-breakpoint
ALTER TABLE "preview_records" DROP CONSTRAINT "preview_records_run_id_preview_runs_id_fk";--> statement-breakpoint
DROP INDEX "preview_issues_run_idx";--> statement-breakpoint
DROP INDEX "preview_issues_record_idx";--> statement-breakpoint
DROP INDEX "preview_records_key_idx";--> statement-breakpoint
DROP INDEX "preview_records_date_idx";--> statement-breakpoint
ALTER TABLE "preview_records" DROP CONSTRAINT "preview_records_run_id_record_type_seq_pk";--> statement-breakpoint
ALTER TABLE "preview_issues" DROP COLUMN "run_id";--> statement-breakpoint
ALTER TABLE "preview_records" DROP COLUMN "diff";--> statement-breakpoint
ALTER TABLE "preview_issues" ADD COLUMN "location_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "preview_issues" ADD COLUMN "cross_check" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "preview_records" ADD COLUMN "location_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "preview_records" ADD COLUMN "mapped_status" text NOT NULL;--> statement-breakpoint
ALTER TABLE "preview_records" ADD CONSTRAINT "preview_records_location_id_record_type_seq_pk" PRIMARY KEY("location_id","record_type","seq");--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "mode" text;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "source_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "mapping_basis" text;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "appointments_until" text;--> statement-breakpoint
ALTER TABLE "preview_issues" ADD CONSTRAINT "preview_issues_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_records" ADD CONSTRAINT "preview_records_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preview_issues_type_idx" ON "preview_issues" USING btree ("location_id","record_type","code");--> statement-breakpoint
CREATE INDEX "preview_issues_record_idx" ON "preview_issues" USING btree ("location_id","record_type","seq");--> statement-breakpoint
CREATE INDEX "preview_records_key_idx" ON "preview_records" USING btree ("location_id","record_type","record_key");--> statement-breakpoint
CREATE INDEX "preview_records_date_idx" ON "preview_records" USING btree ("location_id","record_type","local_date");--> statement-breakpoint
CREATE INDEX "preview_records_source_idx" ON "preview_records" USING btree ("location_id","record_type","source_id");--> statement-breakpoint
CREATE INDEX "preview_records_contact_idx" ON "preview_records" USING btree ("location_id","ref_contact") WHERE "preview_records"."ref_contact" is not null;--> statement-breakpoint
CREATE INDEX "synced_records_date_idx" ON "synced_records" USING btree ("location_id","record_type","appointment_date");
