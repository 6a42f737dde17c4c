-- The preview's tables are derived from the source and can always be computed again, so their writes skip the
-- write-ahead log: after a checkpoint, the first write to each page logged the whole page, a fifth of a 1% sync's and
-- of a full preview's time (docs/benchmarks.md). PostgreSQL empties an unlogged table after a crash (not after a clean
-- stop). preview_store's one row, the epoch of what the tables hold, goes with them; a run's records are shown and
-- sent only while the run's epoch is the current one (lib/preview/preview-store.ts).
CREATE UNLOGGED TABLE "preview_store" (
	"epoch" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "preview_store_one_row" ON "preview_store" ((true));
--> statement-breakpoint
INSERT INTO "preview_store" DEFAULT VALUES;
--> statement-breakpoint
ALTER TABLE "preview_runs" ADD COLUMN "store_epoch" uuid;
--> statement-breakpoint
UPDATE "preview_runs" SET "store_epoch" = (SELECT "epoch" FROM "preview_store");
--> statement-breakpoint
ALTER TABLE "preview_issues" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "preview_records" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "preview_record_counts" SET UNLOGGED;
--> statement-breakpoint
-- Fails the statement it is in unless `expected` is the current epoch: a read of the preview's records on a sync's
-- path is never answered with the empty tables a crash left (a one-time filter: evaluated once per statement).
CREATE FUNCTION preview_store_check(expected uuid) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF expected IS NULL OR NOT EXISTS (SELECT 1 FROM preview_store WHERE epoch = expected) THEN
    RAISE EXCEPTION 'The preview''s stored records were lost when the database crashed: they are computed again from the source.'
      USING ERRCODE = 'LSP01';
  END IF;
  RETURN true;
END
$$;
