import { describe, expect, it } from "vitest";
import { forTerminal, jsonForTerminal } from "./terminal-output";

describe("forTerminal", () => {
  it("escapes what a terminal would act on or show deceptively, and keeps people's text", () => {
    expect(forTerminal("\u001b[31mred\u001b[0m")).toBe("\\u001b[31mred\\u001b[0m");
    expect(forTerminal("line\nforged line")).toBe("line\\u000aforged line");
    expect(forTerminal("invoice\u202Efdp.exe")).toBe("invoice\\u202efdp.exe");
    expect(forTerminal("a\u009b2Jb\u007f")).toBe("a\\u009b2Jb\\u007f");
    expect(forTerminal("Zoë’s Café — 東京 😀")).toBe("Zoë’s Café — 東京 😀");
    expect(forTerminal(null)).toBe("");
  });
});

describe("jsonForTerminal", () => {
  it("is the same JSON with no raw control, C1 or direction character", () => {
    const value = { name: "a\u001b[2J\u202E\u200b\u009b\u2028b", list: ["\ud800", "😀"], pretty: true };
    for (const text of [jsonForTerminal(value), jsonForTerminal(value, 2)]) {
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200d\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/);
      expect(JSON.parse(text)).toEqual(value);
    }
  });
});
