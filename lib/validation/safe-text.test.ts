import { describe, expect, it } from "vitest";
import { escapeUnsafeCharacters, findUnsafeCharacter, findUnstorableText, safeText } from "./safe-text";

const refusedEverywhere = [
  ["NUL", "a\u0000b"],
  ["ESC (terminal escape sequence)", "Salon \u001b[31mred"],
  ["DEL", "a\u007fb"],
  ["C1 control (CSI)", "a\u009bb"],
  ["right-to-left override", "Salon \u202Egnp.exe"],
  ["left-to-right embedding", "a\u202Ab"],
  ["first strong isolate", "a\u2068b"],
  ["pop directional isolate", "a\u2069b"],
  ["zero-width space", "ad\u200bmin"],
  ["zero-width joiner between Latin letters", "a\u200db"],
  ["zero-width non-joiner between Latin letters", "ad\u200cmin"],
  ["zero-width joiner after an emoji, before a letter", "💇\u200dx"],
  ["zero-width joiner at the end", "Salon 💇\u200d"],
  ["zero-width non-joiner between emoji", "👩\u200c🍳"],
  ["zero-width joiner between a joining script and Latin", "ی\u200da"],
  ["byte-order mark", "a\ufeffb"],
  ["line separator", "a\u2028b"],
  ["lone high surrogate", "a\ud800b"],
  ["lone low surrogate", "a\udc00b"],
  ["lone surrogate at the end", "ab\ud83d"],
] as const;

describe("findUnsafeCharacter", () => {
  it.each(refusedEverywhere)("refuses %s", (_, text) => {
    expect(findUnsafeCharacter(text)).toBeDefined();
    expect(findUnsafeCharacter(text, { lineBreaks: true })).toBeDefined();
  });

  it("names the code point and its position", () => {
    expect(findUnsafeCharacter("Salon \u202Egnp")).toEqual({ position: 7, codePoint: "U+202E" });
    expect(findUnsafeCharacter("😀\u001b")).toEqual({ position: 2, codePoint: "U+001B" });
  });

  it("accepts what people write: accents, scripts, emoji (surrogate pairs), punctuation", () => {
    for (const text of ["Café Zoë", "Zürich – Salon №1", "東京サロン", "صالون", "שלום", "O'Brien & Sons (Ltd.)", "😀"]) {
      expect(findUnsafeCharacter(text)).toBeUndefined();
    }
  });

  it("accepts the joiners where they are spelling or glue emoji, and leaves them unescaped there", () => {
    const written = [
      "Salon 💇\u200d♀", // woman getting a haircut
      "Chef 👩\u200d🍳",
      "👨🏽\u200d💻 Repairs", // skin tone, then the joiner
      "Bar ❤️\u200d🔥", // variation selector, then the joiner
      "آرایشگاه می\u200cخواهم", // Persian: the non-joiner is spelling
      "ශ්\u200dරී ලංකා", // Sinhala: virama, joiner
      "क्\u200dष", // Devanagari half form
    ];
    for (const text of written) {
      expect(findUnsafeCharacter(text), text).toBeUndefined();
      expect(escapeUnsafeCharacters(text)).toBe(text);
    }
    expect(escapeUnsafeCharacters("ad\u200cmin 👩\u200d🍳")).toBe("ad\\u200cmin 👩\u200d🍳");
  });

  it("allows tabs and line breaks only in multi-line text", () => {
    expect(findUnsafeCharacter("first line\nsecond\ttab\r\n")).toEqual({ position: 11, codePoint: "U+000A" });
    expect(findUnsafeCharacter("first line\nsecond\ttab\r\n", { lineBreaks: true })).toBeUndefined();
  });
});

describe("safeText", () => {
  it("gives the field a message naming the character, and runs the field's own rules", () => {
    const Name = safeText().trim().min(1, "Enter a name").max(10);
    expect(Name.safeParse("  Salon  ").data).toBe("Salon");
    const refused = Name.safeParse("Sal\u001bon");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("must not contain control, invisible or text-direction characters (U+001B at character 4)");
    expect(Name.safeParse("").error?.issues[0]?.message).toBe("Enter a name");
  });
});

describe("findUnstorableText", () => {
  it("finds NUL or a lone surrogate in any string or key of a JSON value, naming its path", () => {
    expect(findUnstorableText({ a: [1, { b: "x\u0000" }] })).toMatchObject({ path: "a.1.b", found: { codePoint: "U+0000" } });
    expect(findUnstorableText({ "k\u0000": 1 })).toMatchObject({ path: "k\\u0000" });
    expect(findUnstorableText("\ud800")).toMatchObject({ path: "(body)" });
    expect(findUnstorableText({ name: "Salon 😀 \u001b", n: null, list: [true, 1.5] })).toBeUndefined();
  });

  it("walks a deeply nested value without overflowing the stack", () => {
    let deep: unknown = "\u0000";
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(findUnstorableText(deep)?.found.codePoint).toBe("U+0000");
  });
});

describe("escapeUnsafeCharacters", () => {
  it("writes control, invisible and direction characters as \\u escapes and leaves the rest", () => {
    expect(escapeUnsafeCharacters("Salon \u001b[2J\u202E\u200b\n😀 Café")).toBe("Salon \\u001b[2J\\u202e\\u200b\\u000a😀 Café");
  });
});
