import { afterAll, beforeAll } from "vitest";
import type { Database } from "@/db/client";
import { systemActorAs } from "@/lib/auth/permissions";
import { pointEnvironmentAtSandbox } from "@/lib/environments/point-at-sandbox";
import type { SyncSandbox } from "@/lib/sync/testing/sync-test-setup";
import { startRecordingProxy, type RecordingProxy } from "@/lib/upstream/testing/recording-proxy";

/**
 * For tests against the sandbox the staging environment points at (`setup`): an admin, a support person calling from a new address each time (the
 * connect throttle counts per address), and how the admin points staging at another address.
 */
export function connectionActors(db: Database, setup: SyncSandbox) {
  const admin = systemActorAs("admin@example.test");
  let address = 0;
  const support = () => systemActorAs("support@example.test", `203.0.113.${++address}`);
  const pointStagingAt = (apiBaseUrl: string, extra: { tokensMoveToNewAddress?: boolean } = {}) =>
    pointEnvironmentAtSandbox(
      { db, actor: admin },
      { name: "staging", apiBaseUrl, uploadOrigin: setup.sandbox.uploadOrigin, credentials: setup.fixture, ...extra },
    );
  return { admin, support, pointStagingAt };
}

/** A second address of the same sandbox (a recording proxy: another origin), for the file's tests. */
export function useSecondAddress(apiBaseUrl: string): () => RecordingProxy {
  let second: RecordingProxy | undefined;
  beforeAll(async () => {
    second = await startRecordingProxy(apiBaseUrl);
  });
  afterAll(() => second?.close());
  return () => second!;
}
