CREATE TYPE "public"."alert_channel_kind" AS ENUM('webhook', 'email');--> statement-breakpoint
CREATE TYPE "public"."alert_kind" AS ENUM('failed', 'recovered');--> statement-breakpoint
CREATE TABLE "alert_channels" (
	"kind" "alert_channel_kind" PRIMARY KEY NOT NULL,
	"webhook_url_encrypted" text,
	"recipients" text[] DEFAULT '{}' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_email" text
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"location_id" uuid NOT NULL,
	"session_id" uuid,
	"kind" "alert_kind" NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"webhook_delivered_at" timestamp with time zone,
	"email_delivered_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "location_alert_states" (
	"location_id" uuid PRIMARY KEY NOT NULL,
	"notified_status" "alert_kind" NOT NULL,
	"session_id" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "schedule_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "schedule_paused_by_email" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "schedule_pause_reason" text;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_alert_states" ADD CONSTRAINT "location_alert_states_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_alert_states" ADD CONSTRAINT "location_alert_states_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_sessions_created_idx" ON "sync_sessions" USING btree ("created_at","id");