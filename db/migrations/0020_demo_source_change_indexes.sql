CREATE INDEX "demo_source_appointments_changed" ON "demo_source"."appointments" USING btree ("source_key","updated_at");--> statement-breakpoint
CREATE INDEX "demo_source_customers_changed" ON "demo_source"."customers" USING btree ("source_key","updated_at");--> statement-breakpoint
CREATE INDEX "demo_source_vehicles_changed" ON "demo_source"."vehicles" USING btree ("source_key","updated_at");