import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";

describe("embedded PostgreSQL", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("keeps its data across a stop and a restart", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "embedded-restart-"));
    dirs.push(dataDir);

    const first = await startEmbeddedPostgres({ dataDir });
    const sqlFirst = postgres(first.url, { max: 1, onnotice: () => {} });
    await sqlFirst`create table kept (value text)`;
    await sqlFirst`insert into kept values ('survives')`;
    await sqlFirst.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    const sqlSecond = postgres(second.url, { max: 1, onnotice: () => {} });
    const rows = await sqlSecond`select value from kept`;
    await sqlSecond.end();
    await second.stop();

    expect(rows.map((row) => row.value)).toEqual(["survives"]);
    expect((await stat(path.join(dataDir, "postgres-password"))).mode & 0o777).toBe(0o600);
  });
});
