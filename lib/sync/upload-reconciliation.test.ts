import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sandboxUploads, syncAttempts } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { clearFaults, injectFault } from "@/lib/sandbox/faults";
import { emptyUpstream, expectedUpstream, upstreamOf } from "./testing/expected-upstream";
import { sampleMappingAt, sampleSourceRows } from "./testing/sample-source";
import { createConnectedLocation, runManualTestSync, useSyncSandbox } from "./testing/sync-test-setup";

const testDb = await useTestDatabase();
const { db } = testDb;
const setup = await useSyncSandbox(db);
const context = sampleMappingAt();

/** Each upload as we recorded sending it, and as the sandbox recorded receiving it: count, bytes, SHA-256 of the body. */
async function uploadsBothSides(sessionId: string, upstreamLocationId: string) {
  const sent = await db
    .select({ records: syncAttempts.records, bytes: syncAttempts.bytes, sha256: syncAttempts.bodySha256, response: syncAttempts.responseBody })
    .from(syncAttempts)
    .where(and(eq(syncAttempts.sessionId, sessionId), eq(syncAttempts.method, "PUT"), isNotNull(syncAttempts.records)));
  const arrived = await db
    .select({ records: sandboxUploads.recordCount, bytes: sandboxUploads.byteCount, sha256: sandboxUploads.bodySha256 })
    .from(sandboxUploads)
    .where(and(eq(sandboxUploads.locationId, upstreamLocationId), isNotNull(sandboxUploads.bodySha256)));
  const key = (upload: { records: number | null; bytes: number | null; sha256: string | null }) =>
    `${upload.records}/${upload.bytes}/${upload.sha256}`;
  return { sent, sentKeys: sent.map(key).sort(), arrivedKeys: arrived.map(key).sort() };
}

describe("upload reconciliation", () => {
  it("records each upload's record count, byte count and body SHA-256, the same as what arrived", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    const session = await runManualTestSync(db, location.id, sampleSourceRows());
    const { sent, sentKeys, arrivedKeys } = await uploadsBothSides(session.id, location.upstreamLocationId);
    // 4 contacts in one part, 8 months of appointments, 2 services' openings.
    expect(sent).toHaveLength(11);
    for (const upload of sent) expect(upload.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sentKeys).toEqual(arrivedKeys);
  });

  it("takes any 2xx answer of an upload as success (spec 4.5): an answer stating a wrong count changes nothing we record", async () => {
    const location = await createConnectedLocation(db, setup, { sourceKey: "array" });
    await injectFault(db, { target: "upload", mode: { kind: "miscount" }, count: 1 });
    const rows = sampleSourceRows();
    const session = await runManualTestSync(db, location.id, rows);
    await clearFaults(db);

    const { sent, sentKeys, arrivedKeys } = await uploadsBothSides(session.id, location.upstreamLocationId);
    const contacts = sent.find((upload) => upload.records === 4)!;
    // The answer said one record fewer; what we recorded is what we sent, and it is what arrived.
    expect(JSON.parse(contacts.response!)).toEqual({ received: 3 });
    expect(sentKeys).toEqual(arrivedKeys);
    expect(await upstreamOf(db, location.upstreamLocationId)).toEqual(expectedUpstream(emptyUpstream(), rows, context));
  });
});
