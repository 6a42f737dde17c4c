import { z } from "zod";

/**
 * A calendar date (YYYY-MM-DD) as inputs take it: a real day between 1970 and 9999. zod's ISO date alone admits year
 * 0000, which PostgreSQL's date refuses (a 500 instead of a field error); the upper bound leaves a day to spare for an
 * end that is moved on by one, and years JavaScript's toISOString() writes as four digits.
 */
export const calendarDate = z.iso
  .date("must be a date (YYYY-MM-DD)")
  .refine((date) => date >= "1970-01-01" && date <= "9999-12-30", "must be a date between 1970 and 9999");
