-- The demo source's trimmed ids, indexed for the re-read by id, are trimmed as the mapping trims them (JavaScript's
-- trim(): db/trimmed-id.ts trimmedIdSql), not of spaces only: the reader's condition is the same expression.
-- A database whose encoding is not UTF8 (an embedded cluster initialised under a C locale before db/embedded.ts
-- asked for UTF8) cannot spell those characters: there the reader re-reads by id without this index
-- (lib/source/sql-source-reader.ts), and the indexes keep trimming spaces only.
DROP INDEX "demo_source"."demo_source_appointments_id_trimmed";--> statement-breakpoint
DROP INDEX "demo_source"."demo_source_customers_number_trimmed";--> statement-breakpoint
DROP INDEX "demo_source"."demo_source_vehicles_id_trimmed";--> statement-breakpoint
DO $$
BEGIN
  IF current_setting('server_encoding') = 'UTF8' THEN
    EXECUTE $i$CREATE INDEX "demo_source_appointments_id_trimmed" ON "demo_source"."appointments" USING btree ("source_key",coalesce(btrim("id"::text, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'), ''))$i$;
    EXECUTE $i$CREATE INDEX "demo_source_customers_number_trimmed" ON "demo_source"."customers" USING btree ("source_key",coalesce(btrim("customer_no"::text, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'), ''))$i$;
    EXECUTE $i$CREATE INDEX "demo_source_vehicles_id_trimmed" ON "demo_source"."vehicles" USING btree ("source_key",coalesce(btrim("id"::text, E'\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'), ''))$i$;
  ELSE
    EXECUTE $i$CREATE INDEX "demo_source_appointments_id_trimmed" ON "demo_source"."appointments" USING btree ("source_key",coalesce(btrim("id"::text), ''))$i$;
    EXECUTE $i$CREATE INDEX "demo_source_customers_number_trimmed" ON "demo_source"."customers" USING btree ("source_key",coalesce(btrim("customer_no"::text), ''))$i$;
    EXECUTE $i$CREATE INDEX "demo_source_vehicles_id_trimmed" ON "demo_source"."vehicles" USING btree ("source_key",coalesce(btrim("id"::text), ''))$i$;
  END IF;
END $$;
