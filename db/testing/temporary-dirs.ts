import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** Makes folders under the system's temporary directory (a PostgreSQL data folder each), removed after the file's tests. */
export function useTemporaryDirs(): (prefix: string) => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  return async (prefix) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
