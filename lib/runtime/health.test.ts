import { connectDatabase } from "@/db/client";
import { describe, expect, it, vi } from "vitest";
import { findFreePort } from "@/db/embedded";
import { useTestDatabase } from "@/db/testing/test-database";
import { GET } from "@/app/api/health/route";
import { healthResponse } from "./health";

const testDb = await useTestDatabase();
const callRoute = () => GET(new Request("http://127.0.0.1/api/health"), { params: Promise.resolve({}) });

describe("GET /api/health", () => {
  it("answers 200 { status: ok } when the database answers and every migration is applied", async () => {
    const response = await callRoute();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers 503 while a migration this build ships is not applied, naming nothing internal", async () => {
    const [newest] =
      await testDb.sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning *`;
    const log = vi.fn();
    try {
      const response = await healthResponse(testDb.db, log);
      expect(response.status).toBe(503);
      expect(await response.text()).toBe(JSON.stringify({ status: "unavailable" }));
      expect(log).toHaveBeenCalledWith("[health] unavailable: migrations not applied");
    } finally {
      await testDb.sql`insert into drizzle.__drizzle_migrations ${testDb.sql(newest!)}`;
    }
    expect((await callRoute()).status).toBe(200);
  });

  it("answers 503 within seconds when the database cannot be reached", async () => {
    const unreachable = connectDatabase(`postgres://nobody:secret-password@127.0.0.1:${await findFreePort()}/nothing`, { max: 1 });
    const log = vi.fn();
    const started = Date.now();
    const response = await healthResponse(unreachable.db, log);
    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);
    const body = await response.text();
    expect(body).toBe(JSON.stringify({ status: "unavailable" }));
    expect(log).toHaveBeenCalledWith("[health] unavailable: database not reachable");
    await unreachable.sql.end({ timeout: 0 });
  });
});
