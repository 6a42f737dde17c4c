import { format } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { describeErrorForLog, installLogRedaction } from "./safe-error";

const testDb = await useTestDatabase();
const personal = "alice.o'hara@example.test";

/** A real failed query: PostgreSQL refuses NUL, and drizzle puts the SQL and parameters in the error's message and properties. */
async function failedQuery(): Promise<Error> {
  try {
    await testDb.db
      .select()
      .from(users)
      .where(eq(users.email, `${personal}\u0000`));
  } catch (error) {
    return error as Error;
  }
  throw new Error("the query did not fail");
}

/** A console that writes what Node's console would (util.format inspects objects, errors with their properties). */
function capturingConsole() {
  const lines: string[] = [];
  const write = (...args: unknown[]) => void lines.push(format(...args));
  const target = { error: write, warn: write, log: write, info: write, debug: write, trace: write } as unknown as Console;
  return { target, lines };
}

describe("describeErrorForLog", () => {
  it("names a failed query's classes and codes and its code locations, never its SQL or parameters", async () => {
    const error = await failedQuery();
    // What the log used to carry: the whole error, parameters included.
    expect(format(error)).toContain(personal);
    const described = describeErrorForLog(error);
    expect(described).toMatch(/^\S+ ← PostgresError 22021/);
    expect(described).toContain("    at ");
    expect(described).not.toContain(personal);
    expect(described).not.toContain("select");
    expect(described).not.toContain("params");
  });

  it("keeps a message line that looks like a stack frame out of the frames", () => {
    const error = new Error(`Failed query: x\nparams: a\n    at ${personal}`);
    expect(describeErrorForLog(error)).not.toContain(personal);
  });
});

describe("installLogRedaction", () => {
  it("makes every console method print errors by class and code, as Next.js logs a page's failure", async () => {
    const error = await failedQuery();
    Object.assign(error, { digest: "2180909565" });
    const { target, lines } = capturingConsole();
    installLogRedaction(target);
    target.error("⨯", error);
    target.warn(error);
    target.log("plain text stays", 42);
    const output = lines.join("\n");
    expect(output).not.toContain(personal);
    expect(output).not.toContain("Failed query");
    expect(output).toContain("PostgresError 22021");
    expect(output).toContain("(digest 2180909565)");
    expect(lines[2]).toBe("plain text stays 42");
  });
});
