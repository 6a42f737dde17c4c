import { sql } from "drizzle-orm";
import type { SyncStep } from "./sync-step";

/** Step 1: sync in progress true (the service expects new data). */
export const openStep: SyncStep = {
  name: "open",
  async send(context) {
    await context.client.updateManagementSystem({ ...context.call, managementSystem: context.managementSystem, syncInProgress: true });
    return {
      records: 0,
      bytes: 0,
      onAccepted: (tx) => tx.execute(sql`update sync_sessions set upstream_open = true where id = ${context.fence.sessionId}`).then(() => undefined),
    };
  },
};

/** Step 8: sync in progress false (the service processes the data, then sends campaigns). */
export const closeStep: SyncStep = {
  name: "close",
  async send(context) {
    await context.client.updateManagementSystem({ ...context.call, managementSystem: context.managementSystem, syncInProgress: false });
    return {
      records: 0,
      bytes: 0,
      onAccepted: (tx) => tx.execute(sql`update sync_sessions set upstream_open = false where id = ${context.fence.sessionId}`).then(() => undefined),
    };
  },
};
