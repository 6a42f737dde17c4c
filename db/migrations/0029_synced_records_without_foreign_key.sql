ALTER TABLE "synced_records" DROP CONSTRAINT "synced_records_location_id_locations_id_fk";
--> statement-breakpoint
-- What the foreign key's ON DELETE CASCADE did: a deleted location's accepted records go with it. Every write to
-- synced_records is fenced by its session's row, which the location's delete must delete first, so a delete waits for it.
CREATE OR REPLACE FUNCTION delete_location_synced_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM synced_records WHERE location_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER locations_delete_synced_records AFTER DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION delete_location_synced_records();
