CREATE TYPE "public"."preview_status" AS ENUM('queued', 'running', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "preview_issues" (
	"run_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"seq" integer NOT NULL,
	"severity" text NOT NULL,
	"field" text NOT NULL,
	"code" text NOT NULL,
	"reason" text NOT NULL,
	"original" text
);
--> statement-breakpoint
CREATE TABLE "preview_records" (
	"run_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"seq" integer NOT NULL,
	"source_id" text NOT NULL,
	"record_key" text,
	"status" text NOT NULL,
	"excluded_reason" text,
	"payload" jsonb,
	"content_hash" text,
	"local_date" date,
	"ref_contact" text,
	"ref_service" text,
	"ref_calendar" text,
	"ref_category" text,
	"ref_calendars" text[],
	"search_text" text DEFAULT '' NOT NULL,
	"diff" text,
	"issue_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "preview_records_run_id_record_type_seq_pk" PRIMARY KEY("run_id","record_type","seq")
);
--> statement-breakpoint
CREATE TABLE "preview_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"location_id" uuid NOT NULL,
	"status" "preview_status" DEFAULT 'queued' NOT NULL,
	"source_fingerprint" text,
	"requested_by_email" text,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"counts" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "synced_records" (
	"location_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"record_key" text NOT NULL,
	"content_hash" text NOT NULL,
	"appointment_date" date,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "synced_records_location_id_record_type_record_key_pk" PRIMARY KEY("location_id","record_type","record_key")
);
--> statement-breakpoint
ALTER TABLE "preview_issues" ADD CONSTRAINT "preview_issues_run_id_preview_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."preview_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_records" ADD CONSTRAINT "preview_records_run_id_preview_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."preview_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_runs" ADD CONSTRAINT "preview_runs_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_records" ADD CONSTRAINT "synced_records_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preview_issues_run_idx" ON "preview_issues" USING btree ("run_id","record_type","code");--> statement-breakpoint
CREATE INDEX "preview_issues_record_idx" ON "preview_issues" USING btree ("run_id","record_type","seq");--> statement-breakpoint
CREATE INDEX "preview_records_key_idx" ON "preview_records" USING btree ("run_id","record_type","record_key");--> statement-breakpoint
CREATE INDEX "preview_runs_location_idx" ON "preview_runs" USING btree ("location_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "preview_runs_one_active" ON "preview_runs" USING btree ("location_id") WHERE "preview_runs"."status" in ('queued', 'running');