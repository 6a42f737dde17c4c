import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import type { OperationContext } from "@/lib/operations/context";
import { sandboxFaultTargets } from "./endpoints";
import { areFaultsEnabled } from "./fault-policy";
import type { InjectSandboxFaultInput, SandboxFaultsView } from "./fault-inputs";
import { clearFaults, injectFault, listFaults } from "./faults";

function assertFaultsEnabled(): void {
  if (!areFaultsEnabled()) throw new DomainError("CONFLICT", "Faults can be injected only in the built-in demo, never in production mode.");
}

export async function getSandboxFaults(ctx: OperationContext<Actor>): Promise<SandboxFaultsView> {
  assertCan(ctx.actor, "sandbox.inspect");
  const enabled = areFaultsEnabled();
  return { enabled, targets: sandboxFaultTargets, faults: enabled ? await listFaults(ctx.db) : [] };
}

export async function injectSandboxFault(ctx: OperationContext, input: InjectSandboxFaultInput): Promise<{ id: number }> {
  assertCan(ctx.actor, "sandbox.faults");
  assertFaultsEnabled();
  if (!sandboxFaultTargets.includes(input.target)) {
    throw new DomainError("INVALID", "The fault is not valid.", [{ field: "target", reason: `must be one of ${sandboxFaultTargets.join(", ")}` }]);
  }
  return ctx.db.transaction(async (tx) => {
    const armed = await injectFault(tx, { target: input.target, mode: input.mode, count: input.count, probability: input.count ? undefined : 1 });
    await recordAuditEvent(tx, {
      actor: ctx.actor,
      action: "sandbox.fault_injected",
      target: { type: "sandbox_fault", id: String(armed.id), label: input.target },
      details: { target: input.target, mode: input.mode, count: input.count ?? "until cleared" },
    });
    return armed;
  });
}

/** Clears one fault (`id`) or all of them. */
export async function clearSandboxFaults(ctx: OperationContext, input: { id?: number }): Promise<{ cleared: true }> {
  assertCan(ctx.actor, "sandbox.faults");
  assertFaultsEnabled();
  await ctx.db.transaction(async (tx) => {
    await clearFaults(tx, { id: input.id });
    await recordAuditEvent(tx, {
      actor: ctx.actor,
      action: "sandbox.faults_cleared",
      target: input.id ? { type: "sandbox_fault", id: String(input.id) } : undefined,
      details: { which: input.id ?? "all" },
    });
  });
  return { cleared: true };
}
