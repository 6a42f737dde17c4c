CREATE TABLE "preview_record_counts" (
	"location_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "preview_record_counts_location_id_record_type_pk" PRIMARY KEY("location_id","record_type")
);
--> statement-breakpoint
ALTER TABLE "preview_record_counts" ADD CONSTRAINT "preview_record_counts_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;