CREATE TYPE "public"."sync_session_status" AS ENUM('queued', 'running', 'succeeded', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."sync_step_name" AS ENUM('open', 'calendars', 'service_categories', 'services', 'contact_details', 'vehicles', 'appointments', 'openings', 'close');--> statement-breakpoint
CREATE TYPE "public"."sync_step_status" AS ENUM('pending', 'running', 'succeeded', 'failed', 'skipped', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."sync_trigger" AS ENUM('schedule', 'manual', 'resume', 'cli');--> statement-breakpoint
CREATE TABLE "sync_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"step_id" uuid,
	"item_id" uuid,
	"operation" text NOT NULL,
	"attempt" integer NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer,
	"duration_ms" integer NOT NULL,
	"retry_delay_ms" integer,
	"error" text,
	"records" integer,
	"bytes" bigint,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"location_id" uuid NOT NULL,
	"environment" "environment_name" NOT NULL,
	"trigger" "sync_trigger" NOT NULL,
	"requested_by_email" text,
	"full" boolean DEFAULT false NOT NULL,
	"optional_steps" text[] NOT NULL,
	"status" "sync_session_status" DEFAULT 'queued' NOT NULL,
	"upstream_open" boolean DEFAULT false NOT NULL,
	"current_step" "sync_step_name",
	"preview_run_id" uuid,
	"resumes_session_id" uuid,
	"scheduled_for" date,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"fencing_token" bigint DEFAULT 0 NOT NULL,
	"cancel_requested_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sync_step_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"step_id" uuid NOT NULL,
	"key" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"status" "sync_step_status" DEFAULT 'pending' NOT NULL,
	"records_sent" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sync_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"name" "sync_step_name" NOT NULL,
	"position" integer NOT NULL,
	"status" "sync_step_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"records_sent" integer DEFAULT 0 NOT NULL,
	"records_invalid" integer DEFAULT 0 NOT NULL,
	"records_excluded" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sync_attempts" ADD CONSTRAINT "sync_attempts_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_attempts" ADD CONSTRAINT "sync_attempts_step_id_sync_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."sync_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_attempts" ADD CONSTRAINT "sync_attempts_item_id_sync_step_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."sync_step_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD CONSTRAINT "sync_sessions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD CONSTRAINT "sync_sessions_preview_run_id_preview_runs_id_fk" FOREIGN KEY ("preview_run_id") REFERENCES "public"."preview_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_step_items" ADD CONSTRAINT "sync_step_items_step_id_sync_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."sync_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_steps" ADD CONSTRAINT "sync_steps_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_attempts_session_idx" ON "sync_attempts" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "sync_sessions_location_idx" ON "sync_sessions" USING btree ("location_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_sessions_one_open" ON "sync_sessions" USING btree ("location_id") WHERE "sync_sessions"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "sync_sessions_one_per_day" ON "sync_sessions" USING btree ("location_id","scheduled_for");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_step_items_step_key" ON "sync_step_items" USING btree ("step_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_steps_session_name" ON "sync_steps" USING btree ("session_id","name");