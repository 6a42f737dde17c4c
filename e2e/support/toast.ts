import { expect, type Page } from "@playwright/test";

/**
 * Closes the toast that says `text`, as a person does when it lies over what they click next: a pointer resting on a
 * toast pauses its timer (sonner), so a click waiting for it to leave could wait for ever. One that has already gone
 * by itself (after 4 s) is fine.
 */
export async function closeToast(page: Page, text: string): Promise<void> {
  const toast = page.locator("[data-sonner-toast]", { hasText: text });
  await toast
    .getByRole("button", { name: "Close toast" })
    .click({ timeout: 5_000 })
    .catch(() => {});
  await expect(toast).toBeHidden();
}
