import { z } from "zod";

// Lone UTF-16 surrogates are not text: PostgreSQL cannot store them faithfully and JSON encoders disagree on them.
const LONE_SURROGATE = "[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
// C0 and C1 control characters and DEL (terminal escape sequences; PostgreSQL refuses NUL in text),
// zero-width characters and the byte-order mark, line and paragraph separators, bidi overrides and isolates
// (text that displays differently from what it is).
const INVISIBLE_OR_DIRECTIONAL = "\\u007f-\\u009f\\u200b-\\u200d\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff";

const UNSAFE_SINGLE_LINE = new RegExp(`[\\u0000-\\u001f${INVISIBLE_OR_DIRECTIONAL}]|${LONE_SURROGATE}`);
// Multi-line text (a reason typed in a text area) may also hold tabs and line breaks.
const UNSAFE_MULTI_LINE = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f${INVISIBLE_OR_DIRECTIONAL}]|${LONE_SURROGATE}`);
/** What no text anywhere may hold, whatever the field: NUL and lone surrogates. */
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE}`);
const UNSAFE_ANYWHERE = new RegExp(UNSAFE_SINGLE_LINE.source, "g");
const INVISIBLE_OR_DIRECTIONAL_ANYWHERE = new RegExp(`[${INVISIBLE_OR_DIRECTIONAL}]`, "g");

export interface UnsafeCharacter {
  /** Position in the text, counted in characters from 1. */
  position: number;
  /** U+XXXX */
  codePoint: string;
}

function codePointLabel(unit: number): string {
  return `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;
}

function firstMatch(text: string, pattern: RegExp): UnsafeCharacter | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  return { position: [...text.slice(0, match.index)].length + 1, codePoint: codePointLabel(match[0].charCodeAt(0)) };
}

/** The first character a person's text must not hold, if any. */
export function findUnsafeCharacter(text: string, options: { lineBreaks?: boolean } = {}): UnsafeCharacter | undefined {
  return firstMatch(text, options.lineBreaks ? UNSAFE_MULTI_LINE : UNSAFE_SINGLE_LINE);
}

/** NUL or a lone surrogate, which no text may hold whatever the field (passwords included). */
export function findUnstorableCharacter(text: string): UnsafeCharacter | undefined {
  return firstMatch(text, UNSTORABLE);
}

export function unsafeCharacterMessage(found: UnsafeCharacter): string {
  return `must not contain control, invisible or text-direction characters (${found.codePoint} at character ${found.position})`;
}

/**
 * A string a person typed (names, search text, keys, reasons): refuses control characters,
 * bidi overrides, zero-width characters and lone surrogates with a message the form shows
 * beside the field. Chain the field's own rules after it: `safeText().trim().min(1).max(120)`.
 */
export function safeText(options: { lineBreaks?: boolean } = {}) {
  return z.string().superRefine((text, context) => {
    const found = findUnsafeCharacter(text, options);
    if (found) context.addIssue({ code: "custom", message: unsafeCharacterMessage(found) });
  });
}

/**
 * The text with every character refused above written as a \uXXXX escape (line breaks
 * included), for terminals and log lines: nothing a terminal would act on or show deceptively.
 */
export function escapeUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE_ANYWHERE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * JSON text (from JSON.stringify, which escapes C0 controls and lone surrogates already) with DEL,
 * C1 controls, zero-width and direction characters escaped too. Still the same JSON: those
 * characters can only stand inside its strings, where \uXXXX means the same.
 */
export function escapeInvisibleCharactersInJson(json: string): string {
  return json.replace(INVISIBLE_OR_DIRECTIONAL_ANYWHERE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The dotted path of the first string (value or object key) in a parsed JSON value or a
 * params/query record that holds NUL or a lone surrogate, or undefined. Iterative, so a
 * deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(value: unknown, root = ""): { path: string; found: UnsafeCharacter } | undefined {
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length) {
    const [current, path] = pending.pop()!;
    if (typeof current === "string") {
      const found = findUnstorableCharacter(current);
      if (found) return { path: path || "(body)", found };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, path ? `${path}.${index}` : String(index)]));
    } else if (current && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) {
        const keyPath = path ? `${path}.${escapeUnsafeCharacters(key)}` : escapeUnsafeCharacters(key);
        const found = findUnstorableCharacter(key);
        if (found) return { path: keyPath, found };
        pending.push([item, keyPath]);
      }
    }
  }
  return undefined;
}
