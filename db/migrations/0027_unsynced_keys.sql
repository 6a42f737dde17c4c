CREATE TABLE "unsynced_key_ledgers" (
	"location_id" uuid PRIMARY KEY NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unsynced_keys" (
	"location_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"record_key" text NOT NULL,
	CONSTRAINT "unsynced_keys_location_id_record_type_record_key_pk" PRIMARY KEY("location_id","record_type","record_key")
);
--> statement-breakpoint
ALTER TABLE "unsynced_key_ledgers" ADD CONSTRAINT "unsynced_key_ledgers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unsynced_keys" ADD CONSTRAINT "unsynced_keys_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;