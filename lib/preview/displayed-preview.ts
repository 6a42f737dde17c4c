import type { PreviewRun } from "./read-preview";
import { previewRecordTypes, type PreviewRecordType } from "./preview-plan";

/** What the preview page shows of a location's runs. */
export interface DisplayedPreview {
  /** The run whose records are shown; null: none yet. */
  run: PreviewRun | null;
  /** The run whose counts, issues and root causes are complete: the shown one, or a first run storing its records. */
  checked: PreviewRun | null;
  /** A first run's counts and issues are complete while the records a sync sends are still being stored. */
  storing: boolean;
  /** The record types shown, in the session's order (jsonb does not keep key order). */
  types: PreviewRecordType[];
}

type Runs = { shown: PreviewRun | null; active: PreviewRun | null };

/**
 * The shown run (the newest succeeded); before any succeeded, a first run once its counts and issues are complete
 * (lib/preview/first-run-sink.ts), or, before that, the record types it has read so far (provisional).
 */
export function displayedPreview({ shown, active }: Runs): DisplayedPreview {
  const checked = shown ?? (active?.checkedAt ? active : null);
  if (checked) {
    const counts = checked.counts;
    const types = previewRecordTypes.filter((type) => (counts ? counts[type] : type in checked.progress));
    return { run: checked, checked, storing: !shown, types };
  }
  const readSoFar = active ? previewRecordTypes.filter((type) => active.progress[type]?.done) : [];
  return { run: readSoFar.length ? active : null, checked: null, storing: false, types: readSoFar };
}
