CREATE SCHEMA "demo_source";
--> statement-breakpoint
CREATE TABLE "demo_source"."appointments" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"customer_no" text,
	"service_id" integer,
	"staff_id" integer,
	"starts_at" timestamp,
	"ends_at" timestamp,
	"price" numeric(10, 2),
	"status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."availability_slots" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"staff_id" integer,
	"service_id" integer,
	"starts_at" timestamp,
	CONSTRAINT "availability_slots_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_key" text NOT NULL,
	"customer_no" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"email_opt_in" boolean,
	"sms_opt_in" boolean,
	"street" text,
	"address_extra" text,
	"city" text,
	"postal_code" text,
	"phone" text,
	"birthdate" text,
	"gender" text,
	"member" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_source"."locations" (
	"source_key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"country" text NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_source"."service_categories" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"name" text,
	"position" integer,
	"deleted_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_categories_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."service_staff" (
	"source_key" text NOT NULL,
	"service_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	CONSTRAINT "service_staff_source_key_service_id_staff_id_pk" PRIMARY KEY("source_key","service_id","staff_id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."services" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"category_id" integer,
	"name" text,
	"description" text,
	"bookable" boolean,
	"price" numeric(10, 2),
	"duration_minutes" integer NOT NULL,
	"position" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."staff" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"first_name" text,
	"last_name" text,
	"display_name" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE TABLE "demo_source"."vehicles" (
	"source_key" text NOT NULL,
	"id" integer NOT NULL,
	"customer_no" text,
	"make" text,
	"model" text,
	"year" integer,
	"license_plate" text,
	"vin" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicles_source_key_id_pk" PRIMARY KEY("source_key","id")
);
--> statement-breakpoint
CREATE INDEX "demo_source_appointments_window" ON "demo_source"."appointments" USING btree ("source_key","starts_at","id");--> statement-breakpoint
CREATE INDEX "demo_source_availability_window" ON "demo_source"."availability_slots" USING btree ("source_key","starts_at","id");--> statement-breakpoint
CREATE INDEX "demo_source_customers_read" ON "demo_source"."customers" USING btree ("source_key","id");--> statement-breakpoint
CREATE INDEX "demo_source_customers_number" ON "demo_source"."customers" USING btree ("source_key","customer_no");