import type { Database, DatabaseTransaction } from "@/db/client";
import type { PreviewCounts } from "@/db/schema";
import { isTrackedResource } from "./preview-checks";
import type { PlannedRead, PreviewRecordType } from "./preview-plan";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";
import { RecordSpool } from "./record-spool";
import { createStreamCounts, type StreamCounts } from "./stream-counts";

type MappedBatch = { records: PreviewRecordRow[]; issues: PreviewIssueRow[] };

/**
 * Where a location's first run puts each checked batch. The counts are made as it streams (lib/preview/stream-counts.ts);
 * what the page's counts, issues and root causes read is stored at once — the small types whole, and of contacts,
 * vehicles and appointments every issue and every record that has one or is not valid —; the rest, valid records
 * without an issue (most of a big location's), is spooled to disk and stored with one COPY once the counts are in.
 * Storing a million records took PostgreSQL longer than the whole raw pipeline: the counts no longer wait for it.
 */
export interface FirstRunSink {
  /** What of a batch to store now. */
  take(read: PlannedRead, batch: MappedBatch): Promise<MappedBatch>;
  /** The counts of every batch taken (null: the run is not counted). */
  counts(): Promise<PreviewCounts | null>;
  /** Stores the spooled records in `tx`. */
  store(tx: DatabaseTransaction, locationId: string): Promise<void>;
  discard(): Promise<void>;
}

const storedAtOnce = (record: PreviewRecordRow) => record.status !== "valid" || record.issue_count > 0;

/** `countedTypes`: the run's record types, when it is counted (a sync session's run is counted after the session). */
export async function openFirstRunSink(db: Database, locationId: string, countedTypes: readonly PreviewRecordType[] | null): Promise<FirstRunSink> {
  const spool = await RecordSpool.open();
  const counts: StreamCounts | null = countedTypes ? createStreamCounts(db, locationId, countedTypes) : null;
  return {
    async take(read, batch) {
      await counts?.add(read.recordType, batch.records);
      if (!isTrackedResource(read.resource)) return batch;
      await spool.add(batch.records.filter((record) => !storedAtOnce(record)));
      return { records: batch.records.filter(storedAtOnce), issues: batch.issues };
    },
    counts: async () => (counts ? counts.finish() : null),
    store: (tx, id) => spool.store(tx, id),
    discard: () => spool.discard(),
  };
}
