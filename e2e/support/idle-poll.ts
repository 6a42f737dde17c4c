import type { Page } from "@playwright/test";
import { LIST_IDLE_POLL_MS } from "../../lib/queries/fetch-parsed";
import { expect } from "./test";

/**
 * A list of sessions asks again every LIST_IDLE_POLL_MS (15 s) while none of them runs. Instead of waiting that long,
 * moves the page's clock on by the interval (the page's context needs `clock.install()` before its first load) until
 * `assertion` holds: give it a short timeout. Without the poll, nothing would change and the assertion would fail.
 */
export async function expectAfterIdlePoll(page: Page, assertion: () => Promise<unknown>) {
  await expect(async () => {
    await page.clock.fastForward(LIST_IDLE_POLL_MS);
    await assertion();
  }).toPass({ timeout: 30_000 });
}
