import { z } from "zod";

/**
 * What the preview page's live parts read of GET /api/locations/[locationId]/preview: the run in flight and its
 * progress per record type, and when the shown run was counted. Unknown fields are dropped.
 */
export const PreviewRunsResponse = z.object({
  active: z
    .object({
      status: z.string(),
      /** A first run's counts and issues are complete; its valid records are being stored. */
      checkedAt: z.string().nullable(),
      progress: z.record(z.string(), z.object({ rows: z.number(), done: z.boolean() })),
    })
    .nullable(),
  shown: z.object({ countedAt: z.string().nullable() }).nullable(),
});
export type PreviewRunsState = z.infer<typeof PreviewRunsResponse>;
