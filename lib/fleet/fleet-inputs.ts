import { z } from "zod";
import type { Actor } from "@/lib/auth/permissions";
import { EnvironmentName } from "@/lib/environments/environment-inputs";
import { calendarDate } from "@/lib/validation/calendar-date";
import { safeText } from "@/lib/validation/safe-text";

export const FLEET_SESSIONS_PAGE_SIZE = 50;
export const FLEET_MATRIX_PAGE_SIZE = 50;

export const FleetSessionStatus = z.enum(["queued", "running", "succeeded", "failed", "cancelled"]);
export const FleetSessionTrigger = z.enum(["schedule", "manual", "resume", "cli"]);

/** /sessions: filters and the keyset position, all from the URL. */
export const FleetSessionQuery = z.object({
  status: FleetSessionStatus.optional(),
  trigger: FleetSessionTrigger.optional(),
  environment: EnvironmentName.optional(),
  q: safeText().trim().max(200).optional(),
  /** Sessions that ended on this UTC day (the "today" tiles link here). */
  ended: calendarDate.optional(),
  /** Sessions created on this UTC day (a chart's day links here). */
  created: calendarDate.optional(),
  after: safeText().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(FLEET_SESSIONS_PAGE_SIZE),
});
export type FleetSessionQuery = z.infer<typeof FleetSessionQuery>;

/** /fleet: filters and the page number (the order is computed, so pages are numbered). */
export const FleetMatrixQuery = z.object({
  environment: EnvironmentName.optional(),
  q: safeText().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(FLEET_MATRIX_PAGE_SIZE),
});
export type FleetMatrixQuery = z.infer<typeof FleetMatrixQuery>;

/** Who is looking: the membership rule (lib/auth/permissions) decides which locations they see. */
export type FleetViewer = Actor;

export function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, "\\$&");
}
