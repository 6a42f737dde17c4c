-- An incremental run's search for deleted rows compares the source's counts by day (appointments) or id end (customers,
-- vehicles) with ours: kept with the record count (lib/preview/record-buckets.ts) instead of counted over the location's
-- records each run. Null until a run writes the type: counted then as before.
ALTER TABLE "preview_record_counts" ADD COLUMN "buckets" jsonb;
