import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { signInWithPassword } from "@/lib/auth/sign-in-with-password";

const testDb = await useTestDatabase();
const root = path.resolve(import.meta.dirname, "../..");

function runCli(args: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "lib/cli/main.ts"), ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "development",
        DATABASE_URL: testDb.url,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "cli-")),
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

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
