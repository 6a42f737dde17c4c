// The one definition of which mapped records may be sent. Every check, plan, count and page reads it from here
// (SQL through lib/pipeline/record-status-sql.ts), so what the preview calls valid is what a sync sends.

/** What a mapped record is once mapped and checked. */
export type RecordStatus = "valid" | "warning" | "error" | "excluded";

/** Sent, and there for other records to name: valid, or valid with warnings (a field left out, a value cleaned up). */
export const sendableStatuses = ["valid", "warning"] as const satisfies readonly RecordStatus[];

/** Never sent: counted on the step as invalid (`error`) or excluded by a rule (`excluded`). */
export const skippedStatuses = ["error", "excluded"] as const satisfies readonly RecordStatus[];

// Takes any string (a status as the browser got it) and is no type guard: the checks go on to change a sendable
// record's status (a duplicate, a missing reference).
export function isSendable(record: { status: string } | null | undefined): boolean {
  return record != null && (sendableStatuses as readonly string[]).includes(record.status);
}
