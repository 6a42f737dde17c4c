import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { signInWithPassword } from "@/lib/auth/sign-in-with-password";
import { runCli as runCliProcess } from "./testing/run-cli";

const testDb = await useTestDatabase();
const runCli = (args: string[], stdin: string) => runCliProcess(testDb.url, args, { stdin });

describe("user:create", () => {
  it("creates a user whose password comes from standard input, and never prints it", async () => {
    const password = "piped-password-for-cli-5d1e";
    const result = await runCli(["user:create", "--email", "First.Admin@Example.test", "--role", "admin", "--json"], `${password}\n`);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: "first.admin@example.test", role: "admin" });
    expect(result.stdout + result.stderr).not.toContain(password);
    const signIn = await signInWithPassword({ db: testDb.db }, { email: "first.admin@example.test", password, clientAddress: "cli-test" });
    expect(signIn).toMatchObject({ ok: true, user: { role: "admin" } });
  });

  it("refuses a bad role and a short password with the field named, creating nothing", async () => {
    const badRole = await runCli(["user:create", "--email", "x@example.test", "--role", "boss"], "a long enough password\n");
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain("--role");
    const shortPassword = await runCli(["user:create", "--email", "y@example.test", "--role", "support"], "short\n");
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain("password: must be at least 12 characters");
    const rows = await testDb.sql`select email from users where email in ('x@example.test', 'y@example.test')`;
    expect(rows).toHaveLength(0);
  });
});
