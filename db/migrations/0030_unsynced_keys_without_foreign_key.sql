ALTER TABLE "unsynced_keys" DROP CONSTRAINT "unsynced_keys_location_id_locations_id_fk";
--> statement-breakpoint
-- What the foreign key's ON DELETE CASCADE did: a deleted location's unsynced keys go with it. Every insert locks the
-- location's row (FOR KEY SHARE), so a delete waits for it.
CREATE OR REPLACE FUNCTION delete_location_unsynced_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM unsynced_keys WHERE location_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER locations_delete_unsynced_keys AFTER DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION delete_location_unsynced_keys();
