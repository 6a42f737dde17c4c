CREATE INDEX "demo_source_appointments_id_text" ON "demo_source"."appointments" USING btree ("source_key",("id"::text));--> statement-breakpoint
CREATE INDEX "demo_source_appointments_id_trimmed" ON "demo_source"."appointments" USING btree ("source_key",coalesce(btrim("id"::text), ''));--> statement-breakpoint
CREATE INDEX "demo_source_customers_number_trimmed" ON "demo_source"."customers" USING btree ("source_key",coalesce(btrim("customer_no"::text), ''));--> statement-breakpoint
CREATE INDEX "demo_source_vehicles_id_text" ON "demo_source"."vehicles" USING btree ("source_key",("id"::text));--> statement-breakpoint
CREATE INDEX "demo_source_vehicles_id_trimmed" ON "demo_source"."vehicles" USING btree ("source_key",coalesce(btrim("id"::text), ''));