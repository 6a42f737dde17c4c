CREATE TABLE "location_step_outcomes" (
	"location_id" uuid NOT NULL,
	"step" "sync_step_name" NOT NULL,
	"status" "sync_step_status" NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"session_id" uuid,
	CONSTRAINT "location_step_outcomes_location_id_step_pk" PRIMARY KEY("location_id","step")
);
--> statement-breakpoint
ALTER TABLE "location_step_outcomes" ADD CONSTRAINT "location_step_outcomes_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_step_outcomes" ADD CONSTRAINT "location_step_outcomes_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE set null ON UPDATE no action;