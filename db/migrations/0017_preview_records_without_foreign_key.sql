ALTER TABLE "preview_records" DROP CONSTRAINT "preview_records_location_id_locations_id_fk";
--> statement-breakpoint
-- What the foreign key's ON DELETE CASCADE did: a deleted location's preview records go with it (its issues and runs
-- keep their foreign keys). A preview write holds the location's row lock (FOR KEY SHARE), so a delete waits for it.
CREATE OR REPLACE FUNCTION delete_location_preview_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM preview_records WHERE location_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER locations_delete_preview_records AFTER DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION delete_location_preview_records();
