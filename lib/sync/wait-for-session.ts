import { eq } from "drizzle-orm";
import type { OperationContext } from "@/lib/operations/context";
import { syncSessions } from "@/db/schema";
import { runSession, type RunSessionOptions } from "./run-session";
import { LeaseHeldError } from "./session-fence";

const finished = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Runs the session in this process, or, when a worker already holds it, waits for it
 * to finish (taking it over should that worker's lease expire). Returns the final status.
 */
export async function runOrWaitForSession(
  ctx: OperationContext,
  input: { sessionId: string } & RunSessionOptions & { pollMs?: number },
): Promise<string> {
  const { db } = ctx;
  const { sessionId, ...options } = input;
  for (;;) {
    try {
      await runSession(ctx, { sessionId, ...options });
    } catch (error) {
      if (!(error instanceof LeaseHeldError)) throw error;
    }
    const [session] = await db.select({ status: syncSessions.status }).from(syncSessions).where(eq(syncSessions.id, sessionId));
    if (!session) throw new Error(`session ${sessionId} vanished`);
    if (finished.has(session.status)) return session.status;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}
