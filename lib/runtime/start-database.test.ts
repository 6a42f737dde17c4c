import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runningEmbeddedServer } from "@/db/embedded";
import { startDatabase } from "./start-database";

const root = path.resolve(import.meta.dirname, "../..");
const dataDirs: string[] = [];
const savedEnv = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  LOCATION_SYNC_EMBEDDED: process.env.LOCATION_SYNC_EMBEDDED,
};

afterEach(() => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
afterAll(async () => {
  for (const dataDir of dataDirs) {
    // A failed test must not leave a server running.
    const running = runningEmbeddedServer(dataDir);
    if (running) process.kill(running.postmasterPid, "SIGINT");
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "location-sync-adopt-"));
  dataDirs.push(dataDir);
  return dataDir;
}

/** A process that started the embedded database on `dataDir`, as the dashboard does. */
async function startOwner(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/runtime/testing/database-owner-child.ts")], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "development", DATA_DIR: dataDir },
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("ready")) resolve();
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`the owner exited (${code}): ${output}`)));
  });
  return child;
}

/** startDatabase as the next process would call it, on the embedded default under `dataDir`. */
function startDatabaseOn(dataDir: string) {
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  delete process.env.LOCATION_SYNC_EMBEDDED;
  return startDatabase();
}

async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    return (await sql`select 1 as one`)[0]?.one === 1;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

describe("the embedded PostgreSQL across processes", () => {
  it("is adopted on restart when the process that started it was killed, and stopped on the next clean shutdown", async () => {
    const dataDir = await freshDataDir();
    const owner = await startOwner(dataDir);
    const running = runningEmbeddedServer(dataDir)!;
    expect(running).not.toBeNull();
    const exited = new Promise((resolve) => owner.once("exit", resolve));
    owner.kill("SIGKILL");
    await exited;
    // kill -9 leaves the server behind.
    expect(runningEmbeddedServer(dataDir)?.postmasterPid).toBe(running.postmasterPid);

    const database = await startDatabaseOn(dataDir);
    expect(await answers(database.url)).toBe(true);
    // Initialised by a process without LANG (startOwner): UTF8 all the same, or migrations that spell text by its
    // Unicode escapes fail, and non-ASCII text neither sorts nor matches case-insensitively.
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    expect((await sql`select current_setting('server_encoding') as encoding, lower('ÄÖÜ') as lowered`)[0]).toEqual({
      encoding: "UTF8",
      lowered: "äöü",
    });
    await sql.end();
    await database.stop();
    expect(runningEmbeddedServer(dataDir)).toBeNull();
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
    expect(await answers(database.url)).toBe(false);

    // And it starts again from the same data.
    const again = await startDatabaseOn(dataDir);
    expect(await answers(again.url)).toBe(true);
    await again.stop();
    expect(runningEmbeddedServer(dataDir)).toBeNull();
  });

  it("is shared, never stopped, while the process that started it is alive", async () => {
    const dataDir = await freshDataDir();
    const owner = await startOwner(dataDir);
    const database = await startDatabaseOn(dataDir);
    await database.stop();
    expect(await answers(database.url)).toBe(true);

    const exited = new Promise((resolve) => owner.once("exit", resolve));
    owner.kill("SIGTERM");
    await exited;
    expect(runningEmbeddedServer(dataDir)).toBeNull();
  });
});
