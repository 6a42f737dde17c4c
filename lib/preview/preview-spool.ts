import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseTransaction } from "@/db/client";
import { copyFile, copyLineEncoder, CopyLines } from "@/db/copy-rows";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { PreviewIssueRow, PreviewRecordRow } from "./preview-row";
import { issueColumns, lockLocation, payloadAsMade, recordColumns } from "./write-preview-batch";

const SPOOL_PREFIX = "location-sync-preview-";
/** Bytes that may wait for the disk per file: the disk takes a few milliseconds a chunk, and the run goes on meanwhile. */
const SENT_BUFFER_BYTES = 4 * 1024 * 1024;
const SMALL_BUFFER_BYTES = 1024 * 1024;
/** A spool not written to for this long belongs to a process that died during its run (a run writes it for minutes). */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Spools that a killed worker left behind in the temporary directory. */
async function removeAbandonedSpools(): Promise<void> {
  const entries = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const entry of entries.filter((name) => name.startsWith(SPOOL_PREFIX))) {
    const path = join(tmpdir(), entry);
    const files = await readdir(path).catch(() => [] as string[]);
    const changed = await Promise.all(
      [path, ...files.map((file) => join(path, file))].map((each) =>
        stat(each).then(
          (found) => found.mtimeMs,
          () => Date.now(),
        ),
      ),
    );
    if (Date.now() - Math.max(...changed) > ABANDONED_AFTER_MS) await rm(path, { recursive: true, force: true }).catch(() => {});
  }
}

/** One table's rows kept on disk as COPY text, stored with one COPY when asked. */
class TableSpool<Row> {
  private readonly lines = new CopyLines();
  constructor(
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly lineOf: (row: Row) => string,
    private readonly file: WriteStream,
  ) {
    // A write error surfaces from add or store (once() rejects on it; unheard, the "error" event would end the process).
    file.on("error", () => {});
  }

  async add(rows: readonly Row[]): Promise<void> {
    for (const row of rows) this.lines.addLine(this.lineOf(row));
    await this.write(this.lines.takeFilled());
  }

  async store(tx: DatabaseTransaction, locationId: string): Promise<void> {
    await this.write(this.lines.all());
    this.file.end();
    await once(this.file, "finish");
    if (!this.lines.count) return;
    const started = phaseClock.start();
    await lockLocation(tx, locationId);
    await copyFile(tx, this.table, this.columns, this.file.path as string);
    phaseClock.stop("record", started);
  }

  close(): void {
    this.file.destroy();
  }

  private async write(chunks: readonly Buffer[]): Promise<void> {
    for (const chunk of chunks) {
      if (this.file.errored) throw this.file.errored;
      if (!this.file.write(chunk)) await once(this.file, "drain");
    }
  }
}

/**
 * preview_records and preview_issues rows kept on disk as COPY text while a first run streams, each part stored with
 * one COPY when the run is ready for it (lib/preview/first-run-sink.ts): storing a record costs PostgreSQL more than
 * the run's reading, mapping and checking of it, and on a shared machine it slowed the reads. Memory: at most 6 MB
 * waiting for the disk. The files are the run's and are removed by `discard`.
 */
export class PreviewSpool {
  private constructor(
    private readonly directory: string,
    /** The records a sync does not send (errors, excluded): with the issues, what root causes read. */
    readonly notSent: TableSpool<PreviewRecordRow>,
    readonly issues: TableSpool<PreviewIssueRow>,
    /** The records a sync sends. */
    readonly sent: TableSpool<PreviewRecordRow>,
  ) {}

  static async open(): Promise<PreviewSpool> {
    await removeAbandonedSpools();
    const directory = await mkdtemp(join(tmpdir(), SPOOL_PREFIX));
    const fileOf = (name: string, bytes = SMALL_BUFFER_BYTES) => createWriteStream(join(directory, name), { highWaterMark: bytes });
    const recordLine = copyLineEncoder<PreviewRecordRow>(recordColumns, payloadAsMade);
    return new PreviewSpool(
      directory,
      new TableSpool("preview_records", recordColumns, recordLine, fileOf("not-sent.copy")),
      new TableSpool("preview_issues", issueColumns, copyLineEncoder<PreviewIssueRow>(issueColumns), fileOf("issues.copy")),
      new TableSpool("preview_records", recordColumns, recordLine, fileOf("sent.copy", SENT_BUFFER_BYTES)),
    );
  }

  async discard(): Promise<void> {
    for (const spool of [this.notSent, this.issues, this.sent]) spool.close();
    await rm(this.directory, { recursive: true, force: true });
  }
}
