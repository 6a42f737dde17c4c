import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { applyMigrations } from "@/db/migrate";
import { queryRows } from "@/db/raw-sql";
import { useTemporaryDirs } from "@/db/testing/temporary-dirs";
import { openPreviewStore, previewStoreEpoch } from "./preview-store";

// A server of its own: a crashed backend makes PostgreSQL restart every connection of the server.

describe("a crash of PostgreSQL", () => {
  const temporaryDir = useTemporaryDirs();

  it("empties the preview's tables and their epoch, keeps the logged tables, and the next run starts a new epoch", async () => {
    const dataDir = await temporaryDir("preview-store-crash-");
    const server = await startEmbeddedPostgres({ dataDir });
    const { db, sql: client, close } = connectDatabase(server.url, { max: 2 });
    try {
      await applyMigrations(db);
      const epoch = await previewStoreEpoch(db);
      expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
      const unlogged = await queryRows<{ name: string }>(
        db,
        sql`select relname as name from pg_class where relkind = 'r' and relpersistence = 'u' and relnamespace = 'public'::regnamespace order by 1`,
      );
      expect(unlogged.map((table) => table.name)).toEqual(["preview_issues", "preview_record_counts", "preview_records", "preview_store"]);
      const [migrations] = await queryRows<{ applied: number }>(db, sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);

      // A backend killed: the server ends every other one and recovers from its write-ahead log, as after a power cut.
      const [victim] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
      process.kill(victim!.pid, "SIGKILL");
      let after: string | null | undefined;
      for (let tries = 0; after === undefined; tries++) {
        after = await previewStoreEpoch(db).catch((error: unknown) => {
          if (tries > 300) throw error;
          return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100));
        });
      }
      expect(after).toBeNull();
      expect(await queryRows(db, sql`select count(*)::int as applied from drizzle.__drizzle_migrations`)).toEqual([migrations]);

      const next = await openPreviewStore(db);
      expect(next).not.toBe(epoch);
      expect(await previewStoreEpoch(db)).toBe(next);
    } finally {
      await close();
      await server.stop();
    }
  });
});
