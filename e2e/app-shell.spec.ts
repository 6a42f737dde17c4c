import { expectNoSeriousAxeViolations } from "./support/axe";
import { expect, test } from "./support/test";

const sizes = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

test("every page links the app's icons and web manifest, and each is served as what it says", async ({ page, request }) => {
  await page.goto("/sign-in");
  const links = await page
    .locator("link[rel~='icon'], link[rel='apple-touch-icon'], link[rel='manifest']")
    .evaluateAll((elements) =>
      elements.map((element) => ({ rel: element.getAttribute("rel"), href: element.getAttribute("href"), type: element.getAttribute("type") })),
    );
  expect(links).toEqual(
    expect.arrayContaining([
      { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
      expect.objectContaining({ rel: "icon", href: "/favicon.ico" }),
      expect.objectContaining({ rel: "apple-touch-icon", href: "/apple-touch-icon.png" }),
      expect.objectContaining({ rel: "manifest", href: "/manifest.webmanifest" }),
    ]),
  );
  await expect(page.locator("meta[name='theme-color']")).toHaveAttribute("content", "#1e293b");

  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const parsed = (await manifest.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(parsed).toMatchObject({ name: "Location Sync", start_url: "/", display: "standalone" });
  expect(parsed.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  for (const { href, type } of [
    ...parsed.icons.map((icon) => ({ href: icon.src, type: icon.type })),
    { href: "/favicon.ico", type: "image/" },
    { href: "/apple-touch-icon.png", type: "image/png" },
  ]) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()["content-type"], href).toContain(type);
    expect((await response.body()).length, href).toBeGreaterThan(100);
  }
});

for (const size of sizes) {
  test(`the sign-in page looks finished at ${size.width}×${size.height}: no sideways scrolling, axe-clean`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in to Location Sync" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Location Sync" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: `e2e/.artifacts/screenshots/sign-in-${size.name}.png`, fullPage: true });
  });
}
