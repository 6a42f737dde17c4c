import { sql, type SQL } from "drizzle-orm";
import { sendableStatuses, skippedStatuses } from "./record-status";

const listText = (statuses: readonly string[]) => `(${statuses.map((status) => `'${status}'`).join(", ")})`;

/** `('valid', 'warning')` as text, for the few conditions built as strings (lib/sync/synced-records/compare.ts). */
export const sendableStatusText = listText(sendableStatuses);

/** `('valid', 'warning')`, for `status in ${sendableStatusList}`. */
export const sendableStatusList: SQL = sql.raw(sendableStatusText);

/** `('error', 'excluded')`: the records a step counts and never sends. */
export const skippedStatusList: SQL = sql.raw(listText(skippedStatuses));
