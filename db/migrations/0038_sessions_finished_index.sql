-- The fleet view counts and charts sessions by the UTC day they ended (finished_at), as its "ended" filter lists them:
-- read through this index instead of every session.
CREATE INDEX "sync_sessions_finished_idx" ON "sync_sessions" USING btree ("finished_at");
