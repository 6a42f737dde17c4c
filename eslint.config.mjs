import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * The files that may read process.env: the configuration module (lib/config/config.ts) and, outside the app, tests
 * with their helpers and the tools' own configuration files. Everything else asks getConfig().
 */
const environmentReaders = [
  "lib/config/config.ts",
  "**/*.test.ts",
  "**/testing/**",
  "e2e/**",
  "next.config.mjs",
  "playwright.config.ts",
  "drizzle.config.ts",
  "vitest.config.ts",
  "postcss.config.mjs",
  "eslint.config.mjs",
];
const readConfigInstead = "Read settings through getConfig() from lib/config/config.ts, where every variable is declared and checked.";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Test helpers like useTestDatabase() and Playwright fixtures' use() are not React hooks.
    files: ["**/*.test.ts", "e2e/**/*.ts", "db/testing/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}"],
    ignores: environmentReaders,
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: readConfigInstead }],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "node:process", importNames: ["env"], message: readConfigInstead },
            { name: "process", importNames: ["env"], message: readConfigInstead },
          ],
        },
      ],
    },
  },
  { ignores: [".next/**", ".data/**", "node_modules/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "e2e/.artifacts/**"] },
];

export default config;
