import { z } from "zod";

/**
 * What the dashboard reads of GET /api/locations/[locationId] (`{ location }`): the connection and its checks.
 * Unknown fields are dropped, so the browser holds only what it shows.
 */
export const LocationConnectionResponse = z.object({
  location: z.object({
    id: z.string(),
    connected: z.boolean(),
    attentionReason: z.string().nullable(),
    upstreamAccountEmail: z.string().nullable(),
    connectedByEmail: z.string().nullable(),
    connectedAt: z.string().nullable(),
    lastCheckedAt: z.string().nullable(),
    lastCheckOk: z.boolean().nullable(),
    schedulePausedAt: z.string().nullable(),
    // Operator details (lib/locations/get-location): absent for a business owner.
    schedulePausedByEmail: z.string().nullable().optional(),
    schedulePauseReason: z.string().nullable().optional(),
  }),
});
export type LocationConnection = z.infer<typeof LocationConnectionResponse>["location"];
