import { z } from "zod";

/** The CSV's columns, as its header names them (in this order in the template); owner_email is optional. */
export const importColumns = [
  "name",
  "time_zone",
  "country",
  "environment",
  "upstream_location_id",
  "source_key",
  "sync_time",
  "owner_email",
] as const;
export type ImportColumn = (typeof importColumns)[number];

export const IMPORT_MAX_ROWS = 1000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** `dryRun`: check every row and report, create nothing. */
export const LocationImportInput = z.object({
  csv: z.string().min(1, "Choose a CSV file").max(IMPORT_MAX_BYTES, "Must be at most 2 MB"),
  dryRun: z.boolean().default(true),
});
export type LocationImportInput = z.infer<typeof LocationImportInput>;

/** One problem of the file: its line number (the header is line 1), the column, and why. */
export interface ImportProblem {
  row: number;
  field: ImportColumn | "file";
  reason: string;
}
