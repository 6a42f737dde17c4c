import { describe, expect, test } from "vitest";
import { describeRequestPath, redactSecrets, redactText, truncateText } from "./redact";

describe("redactText", () => {
  test("removes bearer tokens, token parameters and JSON secret fields", () => {
    const text = [
      "Authorization: Bearer abc.DEF-123_x",
      "GET /v1/users/me?access_token=tok123&x=1",
      '{"access_token":"tok456","password":"hunter22","client_secret":"cs-1","email":"a@b.c"}',
      "x-api-key: key-789",
    ].join("\n");
    const redacted = redactText(text);
    for (const secret of ["abc.DEF-123_x", "tok123", "tok456", "hunter22", "cs-1", "key-789"]) expect(redacted).not.toContain(secret);
    expect(redacted).toContain("a@b.c");
    expect(redacted).toContain("x=1");
  });

  test("removes the call's known secret values wherever they appear", () => {
    expect(redactText("the key sk_live_ABCDEF was wrong", ["sk_live_ABCDEF"])).toBe("the key [REDACTED] was wrong");
    // Values shorter than four characters would erase ordinary text.
    expect(redactText("abc", ["ab"])).toBe("abc");
  });

  test("removes a known secret however an answer encodes it: JSON escapes, \\u escapes, percent-encoding, mixed", () => {
    const apiKey = "ApiKey/Secret+42 ü";
    const spellings = [
      JSON.stringify({ seen: apiKey }),
      '{"seen":"ApiKey\\/Secret+42 \\u00fc"}',
      '{"seen":"ApiKey\\u002FSecret\\u002b42\\u0020\\u00FC"}',
      `next=${encodeURIComponent(apiKey)}`,
      "next=ApiKey%2fSecret%2b42+%C3%BC",
      "next=Api%4Bey/Secret+42 ü",
    ];
    for (const spelling of spellings) {
      const redacted = redactText(spelling, [apiKey]);
      expect(redacted, spelling).toContain("[REDACTED]");
      expect(redacted, spelling).not.toMatch(/Secret/);
    }
    // Only the secret goes: what surrounds it stays.
    expect(redactText('{"seen":"key=ApiKey\\/Secret+42 \\u00fc!"}', [apiKey])).toBe('{"seen":"key=[REDACTED]!"}');
  });
});

describe("redactSecrets", () => {
  test("blanks secret-named keys at any depth and redacts strings", () => {
    const value = { error: { message: "Bearer tok-1 refused", nested: [{ password: "p", apiKey: "k" }] }, ok: 1 };
    expect(redactSecrets(value)).toEqual({
      error: { message: "Bearer [REDACTED] refused", nested: [{ password: "[REDACTED]", apiKey: "[REDACTED]" }] },
      ok: 1,
    });
  });
});

describe("describeRequestPath", () => {
  test("keeps the API path and hides secret query values", () => {
    expect(describeRequestPath(new URL("https://api.test/v1/users/me?access_token=tok&page=2"))).toBe("/v1/users/me?access_token=[REDACTED]&page=2");
  });

  test("shows an upload address by host, hiding its one-time token and signed query", () => {
    expect(describeRequestPath(new URL("https://up.test/uploads/0123456789abcdefABCDEF?X-Amz-Signature=s"), { upload: true })).toBe(
      "up.test/uploads/[REDACTED]?[REDACTED]",
    );
  });
});

test("truncateText keeps a bounded prefix", () => {
  expect(truncateText("x".repeat(10), 4)).toBe("xxxx… (6 more characters)");
});
