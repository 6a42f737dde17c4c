import type { DatabaseOrTransaction } from "@/db/client";
import { systemActorAs, type Actor, type OperationActor } from "@/lib/auth/permissions";
import type { UpstreamClientOptions } from "@/lib/upstream/client";

/**
 * What every operation takes first: `verb(ctx, input)`. The database (or an open transaction, so that an operation
 * joins its caller's), who acts (the permission check and the audit log read it), and the time the operation
 * counts as "now" (tests fix it; default the clock). Operations that only read take `OperationContext<Actor>`: any
 * actor will do; those that write need an OperationActor, whom the audit log names.
 */
export interface OperationContext<A extends Actor = OperationActor> {
  readonly db: DatabaseOrTransaction;
  readonly actor: A;
  readonly now?: Date;
  /** Options for the upstream client of an operation that calls the service (tests: an attempt listener, fewer retries). */
  readonly upstreamClient?: Partial<UpstreamClientOptions>;
}

/** For the few operations anyone may call without signing in (an invite link's): the database and the time. */
export type PublicOperationContext = Pick<OperationContext, "db" | "now">;

/** The operation's "now": the context's, or the clock's. */
export function nowOf(ctx: { readonly now?: Date }): Date {
  return ctx.now ?? new Date();
}

/** The context of the operator's tools and jobs: the system actor, named `email` in the audit log ("cli", "system"). */
export function systemContext(db: DatabaseOrTransaction, email = "system", clientAddress?: string): OperationContext {
  return { db, actor: systemActorAs(email, clientAddress) };
}
