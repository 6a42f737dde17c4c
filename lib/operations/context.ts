import type { DatabaseOrTransaction } from "@/db/client";
import { systemActorAs, type OperationActor } from "@/lib/auth/permissions";
import type { UpstreamClientOptions } from "@/lib/upstream/client";

/**
 * What every operation takes first: `verb(ctx, input)`. The database (or an open transaction, so that an operation
 * joins its caller's), who acts (the permission check and the audit log read it), and the time the operation
 * counts as "now" (tests fix it; default the clock).
 */
export interface OperationContext {
  readonly db: DatabaseOrTransaction;
  readonly actor: OperationActor;
  readonly now?: Date;
  /** Options for the upstream client of an operation that calls the service (tests: an attempt listener, fewer retries). */
  readonly upstreamClient?: Partial<UpstreamClientOptions>;
}

/** The operation's "now": the context's, or the clock's. */
export function nowOf(ctx: OperationContext): Date {
  return ctx.now ?? new Date();
}

/** The context of the operator's tools and jobs: the system actor, named `email` in the audit log ("cli", "system"). */
export function systemContext(db: DatabaseOrTransaction, email = "system", clientAddress?: string): OperationContext {
  return { db, actor: systemActorAs(email, clientAddress) };
}

/**
 * Whether `value` is a context rather than a bare database handle. Only for the few operations that still accept
 * the old `(db, …)` form from the sync engine's callers while that code is being rewritten.
 */
export function isOperationContext(value: object): value is OperationContext {
  return "actor" in value && "db" in value;
}
