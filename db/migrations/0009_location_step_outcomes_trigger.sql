-- Keep location_step_outcomes: the last ended run of each step of each location (the fleet matrix).
CREATE OR REPLACE FUNCTION record_location_step_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('succeeded', 'failed') AND NEW.finished_at IS NOT NULL
     AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status OR OLD.finished_at IS DISTINCT FROM NEW.finished_at) THEN
    INSERT INTO location_step_outcomes (location_id, step, status, finished_at, session_id)
    SELECT s.location_id, NEW.name, NEW.status, NEW.finished_at, NEW.session_id FROM sync_sessions s WHERE s.id = NEW.session_id
    ON CONFLICT (location_id, step) DO UPDATE
      SET status = excluded.status, finished_at = excluded.finished_at, session_id = excluded.session_id
      WHERE location_step_outcomes.finished_at <= excluded.finished_at;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sync_steps_record_outcome AFTER INSERT OR UPDATE OF status, finished_at ON sync_steps
  FOR EACH ROW EXECUTE FUNCTION record_location_step_outcome();
--> statement-breakpoint
INSERT INTO location_step_outcomes (location_id, step, status, finished_at, session_id)
SELECT DISTINCT ON (se.location_id, st.name) se.location_id, st.name, st.status, st.finished_at, st.session_id
FROM sync_steps st JOIN sync_sessions se ON se.id = st.session_id
WHERE st.status IN ('succeeded', 'failed') AND st.finished_at IS NOT NULL
ORDER BY se.location_id, st.name, st.finished_at DESC
ON CONFLICT DO NOTHING;
