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

/**
 * The direction of imports: app → components → lib/<area> → db, with lib/upstream (the upstream client), lib/config
 * and lib/errors at the bottom. Tests (*.test.ts) may reach across to exercise the wiring.
 */
const layer = (target, from, message, except) => ({ target, from, message, ...(except && { except }) });
const layerZones = [
  layer("./components", "./app", "components/ must not import app/: app/ uses components, not the other way round."),
  layer(
    "./components",
    "./lib/config",
    "components/ must not import lib/config (server-only settings, secrets among them): pass values down as props.",
  ),
  layer("./lib", "./app", "lib/ must not import app/: pages and route handlers call lib, not the other way round."),
  layer("./lib", "./components", "lib/ must not import components/: move what both need into lib."),
  layer("./db", "./app", "db/ must not import app/."),
  layer("./db", "./components", "db/ must not import components/."),
  layer("./db", "./lib", "db/ must not import lib/ (only lib/config, which sits below it).", ["./config"]),
  layer("./lib/upstream", "./db", "lib/upstream is the bottom layer: it must not import db/."),
  layer("./lib/upstream", "./lib", "lib/upstream is the bottom layer: of the rest of lib/ it may import only lib/errors and lib/instrumentation.", [
    "./upstream",
    "./errors",
    "./instrumentation",
  ]),
  layer("./lib/config", "./db", "lib/config is the bottom layer: it imports nothing of the project."),
  layer("./lib/config", "./lib", "lib/config is the bottom layer: it imports nothing of the project.", ["./config"]),
  layer("./lib/errors", "./db", "lib/errors is the bottom layer: it imports nothing of the project."),
  layer("./lib/instrumentation", "./db", "lib/instrumentation is the bottom layer: it imports nothing of the project."),
  layer("./lib/instrumentation", "./lib", "lib/instrumentation is the bottom layer: it imports nothing of the project.", ["./instrumentation"]),
  layer("./lib/errors", "./lib", "lib/errors is the bottom layer: it imports nothing of the project.", ["./errors"]),
];

const ROLE_COMPARISON =
  "Authorization lives in lib/auth/permissions.ts: ask can(actor, action, location?) or assertCan(…) instead of comparing roles.";
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

const ONE_SENDABLE_RULE =
  "Which records may be sent is defined once, in lib/pipeline/record-status.ts: use isSendable(), sendableStatuses, or sendableStatusList in SQL.";

/** The rule "valid or warning" written out again: as a comparison, a list of the two, or SQL text. */
const sendableRuleCopies = [
  ...[
    ["valid", "warning"],
    ["warning", "valid"],
  ].map(([first, second]) => ({
    selector: `LogicalExpression[left.type="BinaryExpression"][left.right.value="${first}"][right.type="BinaryExpression"][right.right.value="${second}"]`,
    message: ONE_SENDABLE_RULE,
  })),
  {
    selector: 'ArrayExpression:has(> Literal[value="valid"]):has(> Literal[value="warning"]):not(:has(> Literal[value="error"]))',
    message: ONE_SENDABLE_RULE,
  },
  // SQL text listing the two, in either order, or the two the rule leaves out.
  ...["TemplateElement[value.raw=/PATTERN/]", "Literal[value=/PATTERN/]"].flatMap((selector) =>
    ["'(valid|warning)',\\s*'(valid|warning)'", "'(error|excluded)',\\s*'(error|excluded)'"].map((pattern) => ({
      selector: selector.replace("PATTERN", pattern),
      message: ONE_SENDABLE_RULE,
    })),
  ),
  // The rule's complement written out: `status !== "error" && status !== "excluded"`.
  ...[
    ["error", "excluded"],
    ["excluded", "error"],
  ].map(([first, second]) => ({
    selector: `LogicalExpression[left.type="BinaryExpression"][left.right.value="${first}"][right.type="BinaryExpression"][right.right.value="${second}"]`,
    message: ONE_SENDABLE_RULE,
  })),
];

const ONE_SYNCED_RECORDS_MODULE =
  "Only lib/sync/synced-records speaks SQL to synced_records (what the upstream accepted): add or use a function there.";

/** SQL naming synced_records, or its drizzle table, outside the one module that reads and writes it. */
const syncedRecordsSql = [
  { selector: "TemplateElement[value.raw=/\\bsynced_records\\b/]", message: ONE_SYNCED_RECORDS_MODULE },
  // A plain string of SQL (sql.raw), not a table name handed to a helper (vacuumAfterBulkWrite(db, "synced_records")).
  { selector: "Literal[value=/\\b(from|join|into|update|table)\\s+synced_records\\b/i]", message: ONE_SYNCED_RECORDS_MODULE },
  { selector: 'ImportSpecifier[imported.name="syncedRecords"]', message: ONE_SYNCED_RECORDS_MODULE },
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
    rules: { "no-restricted-syntax": ["error", ...roleComparisons, ...sendableRuleCopies, ...syncedRecordsSql] },
  },
  {
    files: ["lib/sync/synced-records/**"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...roleComparisons, ...sendableRuleCopies] },
  },
  {
    // The definition itself, this file, and tests, which state what they expect in their own words.
    files: ["lib/pipeline/record-status.ts", "lib/pipeline/record-status-sql.ts", "**/*.test.ts", "**/testing/**", "eslint.config.mjs"],
    ignores: ["lib/auth/**", "db/schema/**", "e2e/**"],
    rules: { "no-restricted-syntax": ["error", ...roleComparisons] },
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
  {
    files: ["app/**", "components/**", "lib/**", "db/**"],
    ignores: ["**/*.test.ts"],
    rules: { "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: layerZones }] },
  },
  {
    ignores: [
      ".next/**",
      ".data/**",
      "node_modules/**",
      "db/migrations/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "e2e/.artifacts/**",
    ],
  },
];

export default config;
