/** What a session's steps left out of the upload: invalid records (failed the mapping's checks) and records excluded by rule. */
export interface RecordsNotSent {
  total: number;
  invalid: number;
  excluded: number;
  /** The steps that left something out, in session order. */
  steps: { name: string; invalid: number; excluded: number }[];
}

export function recordsNotSentOf(steps: readonly { name: string; recordsInvalid: number; recordsExcluded: number }[]): RecordsNotSent {
  const leftOut = steps
    .filter((step) => step.recordsInvalid > 0 || step.recordsExcluded > 0)
    .map((step) => ({ name: step.name, invalid: step.recordsInvalid, excluded: step.recordsExcluded }));
  const invalid = leftOut.reduce((sum, step) => sum + step.invalid, 0);
  const excluded = leftOut.reduce((sum, step) => sum + step.excluded, 0);
  return { total: invalid + excluded, invalid, excluded, steps: leftOut };
}

/** "Succeeded with 365 not sent" for a session that succeeded but left records out; otherwise null. */
export function notSentOutcomeLabel(status: string, notSent: RecordsNotSent | number): string | null {
  const total = typeof notSent === "number" ? notSent : notSent.total;
  if (status !== "succeeded" || total === 0) return null;
  return `Succeeded with ${total.toLocaleString("en")} not sent`;
}
