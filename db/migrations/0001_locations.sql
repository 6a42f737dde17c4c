ALTER TABLE "locations" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "country" text DEFAULT 'US' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "environment" "environment_name" DEFAULT 'staging' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "upstream_location_id" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "automotive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "sync_time" text DEFAULT '10:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "location_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "connected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "connected_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "connected_by_email" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "upstream_account_email" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "last_check_ok" boolean;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "attention_reason" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "attention_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "locations_upstream_key" ON "locations" USING btree ("environment","upstream_location_id");--> statement-breakpoint
CREATE INDEX "locations_name_idx" ON "locations" USING btree (lower("name"),"id");