import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_CALLBACK_PATH, safeCallbackPath } from "./safe-callback-path";

const ownOrigin = "http://127.0.0.1:3000";

/** What a browser does with a Location header: resolve it against the page it is on. */
const landsOn = (path: string) => new URL(path, `${ownOrigin}/sign-in`).origin;

describe("safeCallbackPath", () => {
  it.each([
    ["/settings", "/settings"],
    ["/locations/abc?tab=sessions#history", "/locations/abc?tab=sessions#history"],
    ["/locations?q=M%C3%BCller", "/locations?q=M%C3%BCller"],
    ["/locations?q=Müller", "/locations?q=M%C3%BCller"],
    [`${ownOrigin}/settings`, "/settings"],
    ["/a/../settings", "/settings"],
  ])("follows %j on our own origin as %j", (value, expected) => {
    expect(safeCallbackPath(value, ownOrigin)).toBe(expected);
  });

  it.each([
    "/\t/evil.example/phish",
    "/\n/evil.example/phish",
    "/\r/evil.example/phish",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "//evil.example/phish",
    "///evil.example",
    "/.//evil.example",
    "/a/..//evil.example",
    "https://evil.example/phish",
    "http://127.0.0.1:3001/settings",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/\u0000/evil.example",
    "/\u0085/evil.example",
    "",
  ])("sends %j to the default page", (value) => {
    expect(safeCallbackPath(value, ownOrigin)).toBe(DEFAULT_CALLBACK_PATH);
  });

  it("takes the first of repeated parameters, and defaults when there is none or it is over-long", () => {
    expect(safeCallbackPath(["/settings", "//evil.example"], ownOrigin)).toBe("/settings");
    expect(safeCallbackPath(undefined, ownOrigin)).toBe(DEFAULT_CALLBACK_PATH);
    expect(safeCallbackPath("/settings")).toBe("/settings");
    expect(safeCallbackPath("/".padEnd(3000, "a"), ownOrigin)).toBe(DEFAULT_CALLBACK_PATH);
  });

  it("whatever it is given, answers a printable-ASCII path that a browser resolves to our own origin", () => {
    const hostile = fc.oneof(
      fc.string({ unit: "binary", maxLength: 60 }),
      fc
        .array(
          fc.constantFrom(
            "/",
            "\\",
            "\t",
            "\n",
            "\r",
            ".",
            "..",
            "evil.example",
            "%2F",
            "%5C",
            "%09",
            "@",
            ":",
            "http:",
            "https://",
            " ",
            "\u0000",
            "?",
            "#",
          ),
          {
            maxLength: 12,
          },
        )
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(hostile, (value) => {
        const path = safeCallbackPath(value, ownOrigin);
        expect(path).toMatch(/^\/(?!\/)[\x21-\x7e]*$/);
        expect(landsOn(path)).toBe(ownOrigin);
        expect(safeCallbackPath(path, ownOrigin)).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });
});
