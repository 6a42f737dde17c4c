import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { sandboxRecords, sandboxRequestLog, sandboxUploads } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { startSandboxServer, type SandboxServer } from "./server";
import { createSandboxFixture, createSandboxHttp, type SandboxFixture } from "./testing";

const testDb = await useTestDatabase();
let server: SandboxServer;
let fixture: SandboxFixture;
let http: ReturnType<typeof createSandboxHttp>;
let token: string;

beforeAll(async () => {
  server = await startSandboxServer({ db: testDb.db });
  fixture = await createSandboxFixture(testDb.db);
  http = createSandboxHttp(server.apiBaseUrl, fixture.apiKey);
  token = await http.userToken(fixture.owner.email, fixture.owner.password, fixture.clientId, fixture.clientSecret);
});
afterAll(() => server.close());

const sync = (inProgress: boolean) =>
  http.call("PUT", `/locations/${fixture.locationId}/update_management_system`, {
    token,
    body: { management_system: fixture.dataSourceName, management_system_sync_in_progress: inProgress },
  });
const contactAddress = async () =>
  (await http.call("POST", `/locations/${fixture.locationId}/contact_details/batch_create_or_update`, { token, body: {} })).json
    .put_data_url as string;

/** PUTs `bytes` as a stream of `chunkSize`-byte pieces, the way a client streams a large upload. */
async function putStreamed(url: string, bytes: Uint8Array, chunkSize: number) {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
  const response = await fetch(url, { method: "PUT", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
  return { status: response.status, json: (await response.json()) as { received?: number; error?: { code: string; details: unknown[] } } };
}

test("parses a body split at arbitrary bytes, even inside a multi-byte character", async () => {
  await sync(true);
  const records = [
    { external_id: "c-1", first_name: "Zoë", last_name: "Brontë" },
    { external_id: "c-2", first_name: "José", city: "Łódź" },
  ];
  const result = await putStreamed(await contactAddress(), new TextEncoder().encode(JSON.stringify(records)), 3);
  expect(result.status).toBe(200);
  await sync(false);
  const stored = await testDb.db
    .select({ data: sandboxRecords.data })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, fixture.locationId), eq(sandboxRecords.type, "contact_details")));
  expect(stored.map((row) => row.data).sort((a, b) => String(a.external_id).localeCompare(String(b.external_id)))).toEqual(records);
});

test("accepts a large streamed upload and stages every record", async () => {
  await sync(true);
  const total = 50_000;
  const json = JSON.stringify(
    Array.from({ length: total }, (_, index) => ({ external_id: `bulk-${index}`, mobile_phone_number: `+4470000${index}` })),
  );
  const result = await putStreamed(await contactAddress(), new TextEncoder().encode(json), 64 * 1024);
  expect(result).toEqual({ status: 200, json: { received: total } });
  await sync(false);
  const [row] = await testDb.db
    .select({ count: count() })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, fixture.locationId), eq(sandboxRecords.type, "contact_details")));
  expect(row?.count).toBeGreaterThanOrEqual(total);
});

test("rejects the whole large upload when one record near the end is invalid, keeping none of it", async () => {
  await sync(true);
  const items = Array.from({ length: 5_000 }, (_, index) => ({ external_id: `late-${index}`, birthdate: "1990-01-01" }));
  items[4_321] = { external_id: "late-4321", birthdate: "1990-02-30" };
  const result = await putStreamed(await contactAddress(), new TextEncoder().encode(JSON.stringify(items)), 16 * 1024);
  expect(result.status).toBe(422);
  expect(result.json.error?.details[0]).toMatchObject({ index: 4321, field: "birthdate" });
  await sync(false);
  const [row] = await testDb.db
    .select({ count: count() })
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.locationId, fixture.locationId), eq(sandboxRecords.key, "late-0")));
  expect(row?.count).toBe(0);
});

test("records an upload whose client disconnects mid-body as interrupted and keeps nothing of it", async () => {
  await sync(true);
  const url = await contactAddress();
  const abort = new AbortController();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) {
        controller.enqueue(new TextEncoder().encode('[{"external_id":"gone-1"},'));
        sent += 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      abort.abort();
    },
  });
  await expect(
    fetch(url, { method: "PUT", headers: { "content-type": "application/json" }, body, duplex: "half", signal: abort.signal } as RequestInit),
  ).rejects.toThrow();
  await expect
    .poll(async () => {
      const [upload] = await testDb.db
        .select()
        .from(sandboxUploads)
        .where(eq(sandboxUploads.id, await uploadIdOf(url)));
      return upload?.status;
    })
    .toBe("rejected");
  const [entry] = await testDb.db.select().from(sandboxRequestLog).where(eq(sandboxRequestLog.code, "upload_interrupted"));
  expect(entry?.status).toBe(400);
});

async function uploadIdOf(url: string): Promise<string> {
  const { hashSecret } = await import("./secrets");
  const token = new URL(url).pathname.split("/").pop()!;
  const [upload] = await testDb.db
    .select({ id: sandboxUploads.id })
    .from(sandboxUploads)
    .where(eq(sandboxUploads.tokenHash, hashSecret(token)));
  return upload!.id;
}
