import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The project's own rules of eslint.config.mjs, run through ESLint's Node API on snippets placed at given paths
// (nothing is written): a wrong-way import or a read of process.env fails `npm run lint`.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("the layer rule (import/no-restricted-paths)", () => {
  it("refuses imports against the direction app → components → lib → db", async () => {
    expect(await problems("db/wrong-way.ts", 'import { trustsProxy } from "@/lib/http/client-address";\nexport const x = trustsProxy;\n')).toEqual([
      expect.stringMatching(/^import\/no-restricted-paths: .*db\/ must not import lib\//),
    ]);
    expect(await problems("lib/sync/wrong-way.ts", 'import { Button } from "@/components/ui/button";\nexport const x = Button;\n')).toEqual([
      expect.stringMatching(/lib\/ must not import components\//),
    ]);
    expect(await problems("lib/sync/wrong-way.ts", 'import { GET } from "../../app/api/health/route";\nexport const x = GET;\n')).toEqual([
      expect.stringMatching(/lib\/ must not import app\//),
    ]);
    expect(await problems("components/wrong-way.tsx", 'import RootLayout from "@/app/layout";\nexport const x = RootLayout;\n')).toEqual([
      expect.stringMatching(/components\/ must not import app\//),
    ]);
  });

  it("keeps lib/upstream at the bottom: no db, no other lib area but lib/errors", async () => {
    const code = [
      'import { getDatabase } from "@/db/client";',
      'import { syncConfigFromEnvironment } from "@/lib/sync/sync-config";',
      'import { DomainError } from "@/lib/errors/domain-error";',
      'import { cachedZone } from "./cached-zone";',
      "export const x = [getDatabase, syncConfigFromEnvironment, DomainError, cachedZone];",
    ].join("\n");
    expect(await problems("lib/upstream/wrong-way.ts", code)).toEqual([
      expect.stringMatching(/"@\/db\/client" .*lib\/upstream is the bottom layer: it must not import db\//),
      expect.stringMatching(/"@\/lib\/sync\/sync-config" .*may import only lib\/errors/),
    ]);
  });

  it("lets the right direction through, and db use lib/config", async () => {
    const code =
      'import { getDatabase } from "@/db/client";\nimport { createUpstreamClient } from "@/lib/upstream/client";\nexport const x = [getDatabase, createUpstreamClient];\n';
    expect(await problems("lib/sync/right-way.ts", code)).toEqual([]);
    expect(await problems("db/right-way.ts", 'import { getConfig } from "@/lib/config/config";\nexport const x = getConfig;\n')).toEqual([]);
  });

  it("keeps server-only settings out of components", async () => {
    expect(await problems("components/wrong-way.tsx", 'import { getConfig } from "@/lib/config/config";\nexport const x = getConfig;\n')).toEqual([
      expect.stringMatching(/components\/ must not import lib\/config/),
    ]);
  });
});

describe("the configuration rule (no-restricted-properties on process.env)", () => {
  it("refuses process.env outside lib/config, tests and the tools' configuration files", async () => {
    for (const code of [
      "export const port = process.env.PORT;\n",
      'export const port = process["env"].PORT;\n',
      "const { env } = process;\nexport const port = env.PORT;\n",
    ]) {
      expect(await problems("lib/runtime/reads-env.ts", code), code).toEqual([
        expect.stringMatching(/^no-restricted-properties: .*getConfig\(\) from lib\/config\/config\.ts/),
      ]);
    }
    expect(await problems("lib/runtime/reads-env.ts", 'import { env } from "node:process";\nexport const port = env.PORT;\n')).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*getConfig\(\)/),
    ]);
    expect(await problems("app/reads-env.tsx", "export const port = process.env.PORT;\n")).toHaveLength(1);
    expect(await problems("db/reads-env.ts", "export const port = process.env.PORT;\n")).toHaveLength(1);
  });

  it("allows it in the configuration module, tests, test helpers and the tools' configuration files", async () => {
    const code = "export const port = process.env.PORT;\n";
    for (const filePath of [
      "lib/config/config.ts",
      "lib/runtime/reads-env.test.ts",
      "lib/sync/testing/helper.ts",
      "e2e/support/helper.ts",
      "playwright.config.ts",
      "next.config.mjs",
    ]) {
      expect(await problems(filePath, code), filePath).toEqual([]);
    }
  });
});
