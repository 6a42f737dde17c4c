import { z } from "zod";

// The shapes of the sandbox's faults, shared by the server and the inspector's controls (no server imports here).

export const FaultMode = z.discriminatedUnion("kind", [
  // 404 and 405: how a service may answer an endpoint it does not offer (the spec shows no other errors).
  z.object({ kind: z.literal("status"), status: z.union([z.literal(404), z.literal(405), z.literal(500), z.literal(502), z.literal(503)]) }),
  z.object({ kind: z.literal("rate-limit"), retryAfterSeconds: z.number().int().min(0).max(3600) }),
  z.object({ kind: z.literal("delay"), ms: z.number().int().min(0).max(600_000) }),
  z.object({ kind: z.literal("reset") }),
  // An upload is kept whole, but the answer states one record fewer than arrived (the spec shows no answer at all).
  z.object({ kind: z.literal("miscount") }),
]);
export type FaultMode = z.infer<typeof FaultMode>;

/** A fault as the inspector arms it: the next `count` requests to `target` fail, or every one until cleared. */
export const InjectSandboxFaultInput = z.object({
  /** An endpoint name (lib/sandbox/endpoints.ts) or "upload"; checked by the operation. */
  target: z.string().min(1).max(100),
  mode: FaultMode,
  /** Omitted: every request until the fault is cleared. */
  count: z.number().int().min(1).max(10_000).optional(),
});
export type InjectSandboxFaultInput = z.infer<typeof InjectSandboxFaultInput>;

export const ClearSandboxFaultsQuery = z.object({ id: z.coerce.number().int().positive().optional() });

export const SandboxFaultsView = z.object({
  /** False in production mode (and wherever faults are off): the inspector shows no controls. */
  enabled: z.boolean(),
  targets: z.array(z.string()),
  faults: z.array(
    z.object({ id: z.number(), target: z.string(), mode: FaultMode, remaining: z.number().nullable(), probability: z.number().nullable() }),
  ),
});
export type SandboxFaultsView = z.infer<typeof SandboxFaultsView>;
