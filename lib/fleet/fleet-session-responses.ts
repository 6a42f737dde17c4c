import { z } from "zod";
import { EnvironmentName } from "@/lib/environments/environment-inputs";
import type { FleetSessionPage, FleetSessionRow } from "./list-fleet-sessions";

/** GET /api/sessions: a page of sessions across locations, as JSON carries it (dates as ISO strings). */
export const FleetSessionPageResponse = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      locationId: z.string(),
      locationName: z.string(),
      environment: EnvironmentName,
      trigger: z.string(),
      status: z.string(),
      requestedByEmail: z.string().nullable(),
      currentStep: z.string().nullable(),
      error: z.string().nullable(),
      createdAt: z.string(),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      needsAttention: z.boolean(),
      recordsNotSent: z.number(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export type FleetSessionPageJson = z.infer<typeof FleetSessionPageResponse>;
export type FleetSessionJson = FleetSessionPageJson["items"][number];

type AsJson<Row> = { [Key in keyof Row]: Row[Key] extends Date ? string : Row[Key] extends Date | null ? string | null : Row[Key] };

// Compile-time only: the server's row (its dates as JSON strings) and the schema describe the same fields.
export function fleetSessionShapesAgree(
  row: AsJson<FleetSessionRow>,
  parsed: FleetSessionJson,
  page: FleetSessionPage,
): [FleetSessionJson, AsJson<FleetSessionRow>, string | null] {
  return [row, parsed, page.nextCursor];
}
