import type { Database } from "@/db/client";
import type { PreviewRecordType } from "@/lib/preview/preview-plan";
import type { LocationCall, UpstreamClient } from "@/lib/upstream/client";
import type { SessionFence, FencedTransaction } from "../session-fence";
import type { SyncConfig } from "../sync-config";
import type { SyncStepName } from "../step-names";
import type { SkippedCounts } from "../skipped-records";
import type { SessionRecords } from "../stream/session-records";
import type { CatalogueRecheck } from "../plan/catalogue-recheck";

export interface StepContext {
  db: Database;
  fence: SessionFence;
  client: UpstreamClient;
  call: LocationCall;
  /** The preview run that brought the location's records up to date for this session (they are read by location); null when streamed. */
  runId: string | null;
  /**
   * The epoch of the preview's tables the run's records are in (lib/preview/preview-store.ts); null when streamed. Every
   * read of them that plans or sends fails once a crash has emptied them, instead of taking them for an empty location.
   */
  previewEpoch: string | null;
  /** A streamed session's records, read from the source as each step sends them (lib/sync/stream); null: sent from the preview. */
  stream: SessionRecords | null;
  /** The upstream held nothing of the location when this claim of the session began (a first sync, not resumed or taken over). */
  firstSync: boolean;
  location: { id: string; timeZone: string; automotive: boolean };
  full: boolean;
  /**
   * The location's unsynced keys are known (lib/sync/unsynced-keys.ts): a later sync of its preview looks for what to
   * send, unsubscribe and re-import among them instead of comparing the whole location.
   */
  unsyncedOnly: boolean;
  /** What the preview leaves out, per type, counted once while the first steps send (lib/sync/skipped-records.ts); null when streamed. */
  skippedCounts: Promise<Record<string, SkippedCounts>> | null;
  /**
   * Sent from the preview with a catalogue step left out: records naming what the upstream does not hold of it are
   * checked again as they are sent (lib/sync/plan/catalogue-recheck.ts). Null: sent as the preview checked them.
   */
  catalogueRecheck: CatalogueRecheck | null;
  /** Every record is sent, also one the upstream accepted with the same content (a scoped replay). */
  resend: boolean;
  /** The environment's Data Source Name. */
  managementSystem: string;
  /** When the preview (or a streamed session) read the source: today, the horizons and the openings window follow from it. */
  now: Date;
  config: SyncConfig;
}

export interface SentItem {
  records: number;
  bytes: number;
  /** Usable preview records a re-check left out (lib/sync/plan/catalogue-recheck.ts): counted invalid on the step. */
  leftOut?: number;
  /** Runs in the transaction that marks the item succeeded (e.g. recording synced_records). */
  onAccepted?: (tx: FencedTransaction) => Promise<void>;
}

/** One step of the protocol. Steps with `planItems` send one import per item key; others send one request. */
export interface SyncStep {
  name: SyncStepName;
  /** The preview record type whose invalid and excluded counts the step shows. */
  recordType?: PreviewRecordType;
  planItems?: (context: StepContext) => Promise<string[]>;
  /** Items in flight at once (default 1: in plan order, each recorded after the one before). Only for independent items. */
  concurrency?: (config: SyncConfig) => number;
  /** Before each attempt of the step sends its items (a streamed step opens its reads here). */
  prepare?: (context: StepContext, pendingKeys: readonly string[]) => Promise<void>;
  send: (context: StepContext, itemKey: string | null) => Promise<SentItem>;
}
