import type { SourceReader } from "@/lib/source/source-reader";
import { sourceReaderFromEnvironment } from "@/lib/source/sql-source-reader";

const globalForSource = globalThis as unknown as { locationSyncSourceReader?: SourceReader };

/** One source reader per process for pages and handlers (its pool is shared, like the app database's). */
export function getSourceReader(): SourceReader {
  globalForSource.locationSyncSourceReader ??= sourceReaderFromEnvironment();
  return globalForSource.locationSyncSourceReader;
}
