-- Every sync rewrites a few thousand rows of these tables, scattered over a location's pages. The next syncs read them
-- through index-only scans (our appointments counted by day to find deleted ones, what the upstream holds looked up by
-- key), which skip the table only on pages a vacuum marked all-visible. At PostgreSQL's default (a fifth of the table
-- changed) autovacuum came after some twenty 1% syncs of a million-appointment location, and until then those scans
-- visited the table for most rows: counting our appointments by day took 0.33 s instead of 0.08 s after five such
-- syncs (docs/benchmarks.md). Vacuumed after every 10,000 rows changed or inserted, whatever the table's size.
ALTER TABLE "preview_records" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000);
--> statement-breakpoint
ALTER TABLE "synced_records" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000);
