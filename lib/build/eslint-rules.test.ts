import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The project's own rules of eslint.config.mjs, run through ESLint's Node API on snippets placed at given paths
// (nothing is written): a read of process.env fails `npm run lint`.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("the configuration rule (no-restricted-properties on process.env)", () => {
  it("refuses process.env outside lib/config, tests and the tools' configuration files", async () => {
    for (const code of ["export const port = process.env.PORT;\n", 'export const port = process["env"].PORT;\n', "const { env } = process;\nexport const port = env.PORT;\n"]) {
      expect(await problems("lib/runtime/reads-env.ts", code), code).toEqual([expect.stringMatching(/^no-restricted-properties: .*getConfig\(\) from lib\/config\/config\.ts/)]);
    }
    expect(await problems("lib/runtime/reads-env.ts", 'import { env } from "node:process";\nexport const port = env.PORT;\n')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*getConfig\(\)/),
    ]);
    expect(await problems("app/reads-env.tsx", "export const port = process.env.PORT;\n")).toHaveLength(1);
    expect(await problems("db/reads-env.ts", "export const port = process.env.PORT;\n")).toHaveLength(1);
  });

  it("allows it in the configuration module, tests, test helpers and the tools' configuration files", async () => {
    const code = "export const port = process.env.PORT;\n";
    for (const filePath of ["lib/config/config.ts", "lib/runtime/reads-env.test.ts", "lib/sync/testing/helper.ts", "e2e/support/helper.ts", "playwright.config.ts", "next.config.mjs"]) {
      expect(await problems(filePath, code), filePath).toEqual([]);
    }
  });
});
