import type { Database, DatabaseTransaction } from "@/db/client";
import type { PreviewCounts } from "@/db/schema";
import { isSendable } from "@/lib/pipeline/record-status";
import { isTrackedResource } from "./preview-checks";
import type { PlannedRead, PreviewRecordType } from "./preview-plan";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";
import { PreviewSpool } from "./preview-spool";
import { createStreamCounts, type StreamCounts } from "./stream-counts";

type MappedBatch = { records: PreviewRecordRow[]; issues: PreviewIssueRow[] };
const nothing: MappedBatch = { records: [], issues: [] };

/**
 * Where a location's first run puts each checked batch. The counts are made as it streams (lib/preview/stream-counts.ts);
 * the small types are stored at once (the page's first records); contacts, vehicles and appointments are spooled to
 * disk (lib/preview/preview-spool.ts): once every read is done, what the issues and root causes read — every issue and
 * every record not sent (errors, excluded) — is stored, and then, after the counts and issues are marked complete, the
 * records a sync sends (most of a big location's). Storing a million records as they streamed took PostgreSQL longer
 * than the whole raw pipeline, on the cores the source's reads needed.
 */
export interface FirstRunSink {
  /** What of a batch to store now. */
  take(read: PlannedRead, batch: MappedBatch): Promise<MappedBatch>;
  /** The counts of every batch taken (null: the run is not counted). */
  counts(): Promise<PreviewCounts | null>;
  /** Stores the spooled issues and the records not sent, in `tx`. */
  storeIssues(tx: DatabaseTransaction, locationId: string): Promise<void>;
  /** Stores the spooled records that are sent, in `tx`. */
  storeSent(tx: DatabaseTransaction, locationId: string): Promise<void>;
  discard(): Promise<void>;
}

/**
 * `counting`: the transaction the counts are compared in (its connection keeps the run's keys) and the run's record
 * types, when the run is counted (a sync session's run is counted after the session).
 */
export async function openFirstRunSink(
  db: Database,
  locationId: string,
  counting: { tx: DatabaseTransaction; types: readonly PreviewRecordType[] } | null,
): Promise<FirstRunSink> {
  const counts: StreamCounts | null = counting ? await createStreamCounts(counting.tx, db, locationId, counting.types) : null;
  const spool = await PreviewSpool.open();
  return {
    async take(read, batch) {
      await counts?.add(read.recordType, batch.records);
      if (!isTrackedResource(read.resource)) return batch;
      await spool.notSent.add(batch.records.filter((record) => !isSendable(record)));
      await spool.issues.add(batch.issues);
      await spool.sent.add(batch.records.filter(isSendable));
      return nothing;
    },
    counts: async () => (counts ? counts.finish() : null),
    async storeIssues(tx, id) {
      await spool.notSent.store(tx, id);
      await spool.issues.store(tx, id);
    },
    storeSent: (tx, id) => spool.sent.store(tx, id),
    discard: () => spool.discard(),
  };
}
