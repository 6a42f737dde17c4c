import { sql } from "drizzle-orm";
import { queryRows } from "@/db/raw-sql";
import { coalesceNearbyDates, dateOfDayNumber, dayNumber, nextDate, previousDate, type DateRange } from "@/lib/sync/plan/date-ranges";
import { startOfLocalDate } from "@/lib/sync/plan/local-dates";
import { isLocalDate } from "@/lib/upstream/formats";
import { totalOf } from "./count-maps";
import type { RunInput } from "./map-source-rows";
import type { PlannedRead } from "./preview-plan";
import type { BucketCounts } from "./record-buckets";

/**
 * Pieces the appointment window is cut into to find the days with deletions. Each piece is one count of the source
 * by its window, which the file's window index answers (64 of a million appointments: 0.14–0.17 s on two
 * connections, against 1.0–1.3 s to count them all by day, which formats every row's start).
 */
const PIECES = 64;
/** Source queries that compare the ids of some days, at most: scattered deletions merge into this many ranges. */
const DAY_RANGES_COMPARED = 8;

type Window = { sourceKey: string; windowStart: string | null; windowEnd: string | null };

/**
 * The source's appointments counted per piece of the read's window: piece i runs from cut i-1 (the window's start
 * for the first) to cut i (the window's end for the last), cuts at midnight of dates spread evenly over the dates of
 * our appointments as last committed. Any cuts would do; even ones make the pieces with a deletion small.
 */
export interface PieceCounts {
  cuts: string[];
  rows: number[];
}

/** The read's window narrowed to the appointments that start on or after `from` and before `until` (dates; null: the window's bound). */
function windowBetween(input: RunInput, read: PlannedRead, from: string | null, until: string | null): Window {
  const start = from === null ? null : startOfLocalDate(from);
  const end = until === null ? null : startOfLocalDate(until);
  const later = (first: string | null, second: string | null) => (first === null ? second : second === null || first > second ? first : second);
  const earlier = (first: string | null, second: string | null) => (first === null ? second : second === null || first < second ? first : second);
  return { sourceKey: input.sourceKey, windowStart: later(read.windowStart, start), windowEnd: earlier(read.windowEnd, end) };
}

/** The read's window narrowed to the appointments that start on the days of `range`. */
export const windowOfDays = (input: RunInput, read: PlannedRead, range: DateRange) =>
  windowBetween(input, read, range.startDate, nextDate(range.endDate));

const pieceStart = (cuts: string[], piece: number) => (piece === 0 ? null : cuts[piece - 1]!);
const pieceEnd = (cuts: string[], piece: number) => (piece === cuts.length ? null : cuts[piece]!);

/** Counts the source's appointments per piece (PieceCounts), on the reader's connections. */
export async function countSourcePieces(input: RunInput, read: PlannedRead): Promise<PieceCounts> {
  const [span] = await queryRows<{ first: string | null; last: string | null }>(
    input.db,
    sql`select min(local_date)::text as first, max(local_date)::text as last from preview_records
        where location_id = ${input.owner.locationId} and record_type = ${read.recordType} and local_date is not null`,
  );
  const cuts: string[] = [];
  if (span?.first && span.last && isLocalDate(span.first) && isLocalDate(span.last)) {
    const [first, last] = [dayNumber(span.first), dayNumber(span.last)];
    for (let piece = 1; piece < PIECES; piece++) {
      const cut = first + Math.round((piece * (last - first + 1)) / PIECES);
      if (cut > dayNumber(cuts.at(-1) ?? span.first) && cut <= last) cuts.push(dateOfDayNumber(cut));
    }
  }
  const rows = await Promise.all(
    cuts.concat("").map((_, piece) => input.reader.count(read.resource, windowBetween(input, read, pieceStart(cuts, piece), pieceEnd(cuts, piece)))),
  );
  return { cuts, rows };
}

/** The piece a date falls in: the number of cuts on or before it. */
function pieceOf(cuts: string[], day: string): number {
  let [low, high] = [0, cuts.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cuts[middle]! <= day) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The days whose appointments are compared id by id, found in two steps: the pieces (PieceCounts) whose source count
 * differs from ours once the changed rows are replaced, and the pieces either side of them, are counted by day (the
 * day `starts_at` names, ours by the local date the mapping gave); the days that differ there, each with the day
 * before and after, are merged into a few ranges. Deleted rows are all that is left to make ours more than theirs;
 * the mapping moves a time only within a day or across one midnight (a time a clock change skipped), so a row
 * counted in a neighbouring day or piece on one side cannot hide a deleted one: the neighbour differs, and is
 * counted too. Null (compare every id) when the days cannot be matched: a record of ours without a date, a source row
 * whose `starts_at` does not begin with a date, counts that do not add up (a reader without a snapshot, the source
 * changed between them), or a day at the edge of the calendar.
 */
export async function rangesToCompare(
  input: RunInput,
  read: PlannedRead,
  inAll: { ours: number; theirs: number; buckets: BucketCounts },
  countedAhead: Promise<PieceCounts | null>,
): Promise<DateRange[] | null> {
  const pieces = (await countedAhead.catch(() => null)) ?? (await countSourcePieces(input, read));
  // Ours by day as kept (lib/preview/record-buckets.ts): the dated ones, the undated are what the location's count leaves.
  const ours = inAll.buckets;
  if (totalOf(ours.values()) !== inAll.ours || totalOf(pieces.rows) !== inAll.theirs) return null;
  const oursByPiece = pieces.rows.map(() => 0);
  for (const [day, rows] of ours) oursByPiece[pieceOf(pieces.cuts, day)]! += rows;
  const counted = new Set<number>();
  pieces.rows.forEach((rows, piece) => {
    if (rows !== oursByPiece[piece]) for (const near of [piece - 1, piece, piece + 1]) if (near >= 0 && near < pieces.rows.length) counted.add(near);
  });
  // Neighbouring pieces are counted by day together: one source query per run of them.
  const runs: number[][] = [];
  for (const piece of [...counted].sort((first, second) => first - second)) {
    const run = runs.at(-1);
    if (run && run.at(-1) === piece - 1) run.push(piece);
    else runs.push([piece]);
  }
  const theirsByRun = await Promise.all(
    runs.map((run) => {
      const window = windowBetween(input, read, pieceStart(pieces.cuts, run[0]!), pieceEnd(pieces.cuts, run.at(-1)!));
      return input.reader.countByDay("appointments", window);
    }),
  );
  const theirs = new Map<string, number>();
  for (const [index, days] of theirsByRun.entries()) {
    if (totalOf(days.values()) !== totalOf(runs[index]!.map((piece) => pieces.rows[piece]!))) return null;
    for (const [day, rows] of days) theirs.set(day, (theirs.get(day) ?? 0) + rows);
  }
  const differing: string[] = [];
  const oursCounted = [...ours.keys()].filter((day) => counted.has(pieceOf(pieces.cuts, day)));
  for (const day of new Set([...theirs.keys(), ...oursCounted])) {
    if (!isLocalDate(day)) return null;
    if ((theirs.get(day) ?? 0) === (ours.get(day) ?? 0)) continue;
    // The day before the first a date can have (0001-01-01) is none PostgreSQL takes, nor the one after 9999-12-31.
    if (day <= "0001-01-01" || day >= "9999-12-31") return null;
    differing.push(day);
  }
  const aroundEach = differing.flatMap((day) => [previousDate(day), day, nextDate(day)]);
  return coalesceNearbyDates(aroundEach, { maxGapDays: 0, maxRanges: DAY_RANGES_COMPARED });
}
