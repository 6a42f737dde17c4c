import { parse } from "csv-parse/sync";
import { Email } from "@/lib/users/user-inputs";
import { importColumns, IMPORT_MAX_ROWS, type ImportColumn, type ImportProblem } from "./location-import-inputs";
import { LocationInput } from "./location-inputs";

export interface ImportRow {
  /** The line of the file (the header is line 1). */
  row: number;
  location: LocationInput;
  ownerEmail: string | null;
}

/** The location schema's fields, by the column that holds each. */
const columnOfField: Record<string, ImportColumn> = {
  name: "name",
  timeZone: "time_zone",
  country: "country",
  environment: "environment",
  upstreamLocationId: "upstream_location_id",
  sourceKey: "source_key",
  syncTime: "sync_time",
};

/** "Time zone", "timeZone" and "time_zone" all name the time_zone column. */
const normalize = (header: string) => header.toLowerCase().replace(/[^a-z]/g, "");
const columnByNormalizedName = new Map<string, ImportColumn>(importColumns.map((column) => [normalize(column), column]));

const delimiters = [",", ";", "\t"] as const;

/**
 * The header row's separator: a comma, or the semicolon a spreadsheet saves under a locale whose decimal mark is the
 * comma (German, French…), or a tab; whichever the header holds most often outside quotes (a comma when none).
 */
function delimiterOf(csv: string): (typeof delimiters)[number] {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const character of csv.replace(/^\ufeff/, "").replace(/^[\r\n]+/, "")) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === "\n" || character === "\r")) break;
    else if (!quoted) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  return delimiters.reduce((best, candidate) => ((counts.get(candidate) ?? 0) > (counts.get(best) ?? 0) ? candidate : best));
}

/**
 * Parses the file (comma, semicolon or tab separated: see delimiterOf) and checks each row on its own: the shared location schema (LocationInput), and the owner's email.
 * Checks across rows and against the database are ./import-locations.ts's. Every problem is reported, not the first.
 */
export function parseLocationCsv(csv: string): { rows: ImportRow[]; problems: ImportProblem[] } {
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    parsed = parse(csv, {
      bom: true,
      delimiter: delimiterOf(csv),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    return { rows: [], problems: [{ row: lineOfError(csv, error), field: "file", reason: `is not valid CSV: ${(error as Error).message}` }] };
  }
  const lines = startLines(
    csv,
    parsed.map((entry) => entry.info.bytes),
  );
  // A row of only separators (a spreadsheet's formatted but blank row) is skipped like a blank line.
  const kept = parsed.flatMap((entry, index) => (entry.record.some((value) => value !== "") ? [{ record: entry.record, line: lines[index]! }] : []));
  const [header = [], ...body] = kept.map((entry) => entry.record);
  const lineOf = (index: number) => kept[index + 1]!.line;
  const columns = header.map((name) => columnByNormalizedName.get(normalize(name)) ?? null);
  const missing = importColumns.filter((column) => column !== "owner_email" && column !== "sync_time" && !columns.includes(column));
  if (missing.length)
    return { rows: [], problems: missing.map((column) => ({ row: kept[0]?.line ?? 1, field: column, reason: "is missing from the header row" })) };
  if (body.length === 0) return { rows: [], problems: [{ row: 1, field: "file", reason: "has no rows under its header" }] };
  if (body.length > IMPORT_MAX_ROWS)
    return { rows: [], problems: [{ row: 1, field: "file", reason: `has ${body.length} rows; at most ${IMPORT_MAX_ROWS} are imported at once` }] };

  const rows: ImportRow[] = [];
  const problems: ImportProblem[] = [];
  body.forEach((record, index) => {
    const row = lineOf(index);
    const value = (column: ImportColumn) => {
      const at = columns.indexOf(column);
      return at >= 0 && record[at] !== "" ? record[at] : undefined;
    };
    const parsed = LocationInput.safeParse({
      name: value("name") ?? "",
      timeZone: value("time_zone") ?? "",
      country: value("country") ?? "",
      environment: value("environment") ?? "",
      upstreamLocationId: value("upstream_location_id") ?? "",
      sourceKey: value("source_key") ?? "",
      syncTime: value("sync_time"),
    });
    const rawEmail = value("owner_email");
    const email = rawEmail === undefined ? null : Email.safeParse(rawEmail);
    if (!parsed.success)
      for (const issue of parsed.error.issues) problems.push({ row, field: columnOfField[String(issue.path[0])] ?? "file", reason: issue.message });
    if (email && !email.success) problems.push({ row, field: "owner_email", reason: "Must be an email address" });
    if (parsed.success && (!email || email.success)) rows.push({ row, location: parsed.data, ownerEmail: email?.data ?? null });
  });
  return { rows, problems };
}

/**
 * The line a parse error points at. A quote left open makes the parser read to the end of the file: its record starts
 * where the last complete one ended (the error's `bytes`), not at the line it gave up on (its `lines`).
 */
function lineOfError(csv: string, error: unknown): number {
  const { code, bytes, lines } = error as { code?: string; bytes?: number; lines?: number };
  if (code === "CSV_QUOTE_NOT_CLOSED" && bytes !== undefined) return startLines(csv, [bytes, Buffer.byteLength(csv, "utf8")])[1]!;
  return lines ?? 1;
}

const [SPACE, TAB, CR, LF] = [0x20, 0x09, 0x0d, 0x0a];

/**
 * The line each record starts on, from the byte offset where the parser says each ends: blank lines are skipped and a
 * quoted value may span lines, so not its index; and the parser's own line count takes a CRLF inside quotes for two.
 */
function startLines(csv: string, recordEnds: number[]): number[] {
  const bytes = Buffer.from(csv, "utf8");
  const starts: number[] = [];
  let line = 1;
  let at = 0;
  const step = () => {
    if (bytes[at] === LF || (bytes[at] === CR && bytes[at + 1] !== LF)) line += 1;
    at += 1;
  };
  for (const end of recordEnds) {
    while (at < end && [SPACE, TAB, CR, LF].includes(bytes[at]!)) step();
    starts.push(line);
    while (at < end) step();
  }
  return starts;
}
