import { describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemContext } from "@/lib/operations/context";
import { AuditLogQuery, listAuditEvents } from "./list-audit-events";

const testDb = await useTestDatabase();
const at = (iso: string) => new Date(iso);

await testDb.db.insert(auditLog).values([
  { action: "auth.sign_in", actorEmail: "ada@example.test", at: at("2026-11-01T09:00:00Z") },
  { action: "auth.sign_in_failed", actorEmail: "mallory@example.test", at: at("2026-11-02T09:00:00Z") },
  { action: "user.role_changed", actorEmail: "ada@example.test", at: at("2026-11-03T09:00:00Z"), targetLabel: "bob@example.test" },
  { action: "auth.sign_in", actorEmail: "bob@example.test", at: at("2026-11-04T09:00:00Z") },
  { action: "auth.sign_in", actorEmail: "ada@example.test", at: at("2026-11-05T09:00:00Z") },
]);

const query = (input: Record<string, unknown>) => listAuditEvents(systemContext(testDb.db), AuditLogQuery.parse(input));

describe("listAuditEvents", () => {
  it("lists newest first and filters by action, actor and inclusive dates", async () => {
    expect((await query({})).events.map((event) => event.at.toISOString().slice(0, 10))).toEqual([
      "2026-11-05",
      "2026-11-04",
      "2026-11-03",
      "2026-11-02",
      "2026-11-01",
    ]);
    expect((await query({ action: "auth.sign_in", actor: "ADA" })).events.map((event) => event.at.toISOString().slice(8, 10))).toEqual(["05", "01"]);
    expect((await query({ from: "2026-11-02", to: "2026-11-03" })).events.map((event) => event.action)).toEqual([
      "user.role_changed",
      "auth.sign_in_failed",
    ]);
  });

  it("pages with a keyset cursor without skipping or repeating", async () => {
    const first = await query({ limit: 2 });
    const second = await query({ limit: 2, before: first.nextCursor });
    const third = await query({ limit: 2, before: second.nextCursor });
    const all = [...first.events, ...second.events, ...third.events].map((event) => event.id);
    expect(new Set(all).size).toBe(5);
    expect(third.nextCursor).toBeNull();
  });

  it("treats % and _ in the actor filter literally", async () => {
    expect((await query({ actor: "%" })).events).toHaveLength(0);
  });
});
