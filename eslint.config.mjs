import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const ROLE_COMPARISON = "Authorization lives in lib/auth/permissions.ts: ask can(actor, action, location?) or assertCan(…) instead of comparing roles.";
const EQUALITY = "/^[!=]==?$/";
const ROLE_NAME = "Literal[value=/^(admin|support|engineer|owner)$/]";

/** Role comparisons and role lists, allowed only in lib/auth (the permission table) and db/schema (the enum). */
const roleComparisons = [
  ...["left", "right"].flatMap((side) => [
    { selector: `BinaryExpression[operator=${EQUALITY}][${side}.type="MemberExpression"][${side}.property.name="role"]`, message: ROLE_COMPARISON },
    { selector: `BinaryExpression[operator=${EQUALITY}][${side}.type="Identifier"][${side}.name="role"]`, message: ROLE_COMPARISON },
  ]),
  { selector: 'SwitchStatement[discriminant.property.name="role"]', message: ROLE_COMPARISON },
  { selector: 'CallExpression[callee.property.name="includes"][arguments.0.property.name="role"]', message: ROLE_COMPARISON },
  // An array of role names only (["admin", "support"]), not one that merely holds one (CLI arguments).
  { selector: `ArrayExpression:has(> ${ROLE_NAME}):not(:has(> :not(${ROLE_NAME})))`, message: `A list of roles. ${ROLE_COMPARISON}` },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["lib/auth/**", "db/schema/**", "e2e/**"],
    rules: { "no-restricted-syntax": ["error", ...roleComparisons] },
  },
  {
    // Test helpers like useTestDatabase() and Playwright fixtures' use() are not React hooks.
    files: ["**/*.test.ts", "e2e/**/*.ts", "db/testing/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  { ignores: [".next/**", ".data/**", "node_modules/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "e2e/.artifacts/**"] },
];

export default config;
