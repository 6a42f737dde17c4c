import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

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
  { ignores: [".next/**", ".data/**", "node_modules/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "e2e/.artifacts/**"] },
];

export default config;
