import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe finds no serious or critical violation on the page as it is now.
 *
 * One `axe.run` in the page (legacy mode) rather than a partial run per frame finished in a second, blank page: the
 * same rules and results here, since the CSP (`default-src 'self'`) allows only same-origin frames, which legacy mode
 * also checks. Only violations carry every node (`resultTypes`); passes and incomplete keep one each. About 3× faster.
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}
