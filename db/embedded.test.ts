import { stat } from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { sharedBuffersMb, startEmbeddedPostgres } from "./embedded";
import { useTemporaryDirs } from "./testing/temporary-dirs";

describe("embedded PostgreSQL", () => {
  const temporaryDir = useTemporaryDirs();

  it("keeps its data across a stop and a restart", async () => {
    const dataDir = await temporaryDir("embedded-restart-");

    const first = await startEmbeddedPostgres({ dataDir });
    const sqlFirst = postgres(first.url, { max: 1, onnotice: () => {} });
    await sqlFirst`create table kept (value text)`;
    await sqlFirst`insert into kept values ('survives')`;
    await sqlFirst.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    const sqlSecond = postgres(second.url, { max: 1, onnotice: () => {} });
    const rows = await sqlSecond`select value from kept`;
    const [buffers] = await sqlSecond`show shared_buffers`;
    await sqlSecond.end();
    await second.stop();

    expect(rows.map((row) => row.value)).toEqual(["survives"]);
    const mb = sharedBuffersMb();
    expect(buffers!.shared_buffers).toBe(mb % 1024 === 0 ? `${mb / 1024}GB` : `${mb}MB`);
    expect((await stat(path.join(dataDir, "postgres-password"))).mode & 0o777).toBe(0o600);
  });

  it("gets a quarter of the machine's memory for its buffers, from 512 MB to 4 GB", () => {
    const gb = 1024 * 1024 * 1024;
    expect([1, 2, 8, 12, 16, 64].map((memory) => sharedBuffersMb(memory * gb))).toEqual([512, 512, 2048, 3072, 4096, 4096]);
  });
});
