import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseTransaction } from "@/db/client";
import { copyFile, copyLineEncoder, CopyLines } from "@/db/copy-rows";
import { phaseClock } from "@/lib/instrumentation/phase-clock";
import type { PreviewRecordRow } from "./preview-row";
import { lockLocation, payloadAsMade, recordColumns } from "./write-preview-batch";

const lineOf = copyLineEncoder<PreviewRecordRow>(recordColumns, payloadAsMade);

const SPOOL_PREFIX = "location-sync-preview-";
const SPOOL_FILE = "records.copy";
/** A spool not written to for this long belongs to a process that died during its run (a run writes it for minutes). */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Spools that a killed worker left behind in the temporary directory. */
async function removeAbandonedSpools(): Promise<void> {
  const entries = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const entry of entries.filter((name) => name.startsWith(SPOOL_PREFIX))) {
    const path = join(tmpdir(), entry);
    const changed = await stat(join(path, SPOOL_FILE))
      .catch(() => stat(path))
      .then(
        (found) => found.mtimeMs,
        () => Date.now(),
      );
    if (Date.now() - changed > ABANDONED_AFTER_MS) await rm(path, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * preview_records rows kept on disk as COPY text while a first run streams, and stored with one COPY after it: storing
 * a record costs PostgreSQL more than the run's reading, mapping and checking of it, so the counts and issues do not wait
 * for it (lib/preview/first-run.ts). Memory: a 256 KB buffer or two; the file is the run's and is removed by `discard`.
 */
export class RecordSpool {
  private readonly lines = new CopyLines();
  private constructor(
    private readonly directory: string,
    private readonly file: WriteStream,
  ) {}

  static async open(): Promise<RecordSpool> {
    await removeAbandonedSpools();
    const directory = await mkdtemp(join(tmpdir(), SPOOL_PREFIX));
    const file = createWriteStream(join(directory, SPOOL_FILE));
    // A write error surfaces from add or store (the stream's own "error" event would otherwise crash the process).
    file.on("error", () => {});
    return new RecordSpool(directory, file);
  }

  get count(): number {
    return this.lines.count;
  }

  async add(records: readonly PreviewRecordRow[]): Promise<void> {
    for (const record of records) this.lines.addLine(lineOf(record));
    await this.write(this.lines.takeFilled());
  }

  /** Every record added, stored in `tx` (which the caller commits). */
  async store(tx: DatabaseTransaction, locationId: string): Promise<void> {
    await this.write(this.lines.all());
    this.file.end();
    await Promise.race([once(this.file, "finish"), once(this.file, "error").then(([error]) => Promise.reject(error))]);
    if (!this.lines.count) return;
    const started = phaseClock.start();
    await lockLocation(tx, locationId);
    await copyFile(tx, "preview_records", recordColumns, this.file.path as string);
    phaseClock.stop("record", started);
  }

  async discard(): Promise<void> {
    this.file.destroy();
    await rm(this.directory, { recursive: true, force: true });
  }

  private async write(chunks: readonly Buffer[]): Promise<void> {
    for (const chunk of chunks) {
      if (this.file.errored) throw this.file.errored;
      if (!this.file.write(chunk)) await Promise.race([once(this.file, "drain"), once(this.file, "error").then(([error]) => Promise.reject(error))]);
    }
  }
}
