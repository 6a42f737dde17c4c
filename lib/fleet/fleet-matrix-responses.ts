import { z } from "zod";
import { EnvironmentName } from "@/lib/environments/environment-inputs";
import type { FleetMatrixPage } from "./fleet-matrix";
import { matrixSteps } from "./step-freshness";

/** GET /api/fleet: a page of the locations × steps matrix, as JSON carries it (dates as ISO strings). */
export const FleetMatrixPageResponse = z.object({
  rows: z.array(
    z.object({
      locationId: z.string(),
      name: z.string(),
      environment: EnvironmentName,
      attentionReason: z.string().nullable(),
      connected: z.boolean(),
      schedulePaused: z.object({ at: z.string(), byEmail: z.string().nullable(), reason: z.string().nullable() }).nullable(),
      cells: z.array(
        z.object({
          step: z.enum(matrixSteps),
          state: z.enum(["failed", "stale", "fresh", "never", "not_applicable"]),
          at: z.string().nullable(),
        }),
      ),
      latestSession: z.object({ id: z.string(), status: z.string(), recordsNotSent: z.number() }).nullable(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  pageCount: z.number(),
});
export type FleetMatrixPageJson = z.infer<typeof FleetMatrixPageResponse>;
export type FleetMatrixRowJson = FleetMatrixPageJson["rows"][number];

type AsJson<Value> = Value extends Date
  ? string
  : Value extends (infer Item)[]
    ? AsJson<Item>[]
    : Value extends object
      ? { [Key in keyof Value]: AsJson<Value[Key]> }
      : Value;

// Compile-time only: the server's page (its dates as JSON strings) and the schema describe the same fields.
export function fleetMatrixShapesAgree(page: AsJson<FleetMatrixPage>, parsed: FleetMatrixPageJson): [FleetMatrixPageJson, AsJson<FleetMatrixPage>] {
  return [page, parsed];
}
