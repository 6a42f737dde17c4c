export const redactedMarker = "[REDACTED]";

// Field and parameter names whose values are credentials wherever they appear.
const secretNames = [
  "access_token",
  "accessToken",
  "token",
  "password",
  "client_secret",
  "clientSecret",
  "api_key",
  "apiKey",
  "x-api-key",
  "authorization",
];
const secretNamePattern = secretNames.map((name) => name.replace(/[-_]/g, "[-_]?")).join("|");

const patterns: [RegExp, string][] = [
  // Authorization: Bearer <token> (also Basic)
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${redactedMarker}`],
  // "access_token":"..." and the other names, in JSON text
  [new RegExp(`("(?:${secretNamePattern})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "gi"), `$1"${redactedMarker}"`],
  // access_token=... in query strings and form bodies
  [new RegExp(`\\b((?:${secretNamePattern})=)[^&\\s"'#]+`, "gi"), `$1${redactedMarker}`],
  // x-api-key: ... as a header line
  [/\b(x-api-key\s*:\s*)[^\s,;"']+/gi, `$1${redactedMarker}`],
];

const secretKeyPattern = new RegExp(`^(?:${secretNamePattern})$`, "i");

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A hexadecimal number as a pattern that takes its digits in either case. */
const hexDigits = (code: number, width: number) =>
  [...code.toString(16).padStart(width, "0")].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join("");

/**
 * A secret in every spelling an answer may echo it in, character by character and mixed: as it is, escaped with a
 * backslash (JSON's `\/`), as JSON's `\uXXXX` and percent-encoded (either case), a space also as `+`.
 */
function spellingsOf(value: string): RegExp {
  const characters = [...value].map((character) => {
    const units = [...Array(character.length).keys()].map((index) => character.charCodeAt(index));
    const forms = [
      escapeRegExp(character),
      `\\\\${escapeRegExp(character)}`,
      units.map((unit) => `\\\\u${hexDigits(unit, 4)}`).join(""),
      [...Buffer.from(character)].map((byte) => `%${hexDigits(byte, 2)}`).join(""),
      ...(character === " " ? ["\\+"] : []),
    ];
    return `(?:${forms.join("|")})`;
  });
  return new RegExp(characters.join(""), "g");
}

/** Removes credentials from a string (redactText); made once per exchange, whose every header and body it then redacts. */
export type Redactor = (text: string) => string;

/**
 * A redactor of the call's known secret values. Their patterns are built once: built for every header value of every
 * exchange, they took ~4 ms per exchange, 1.2 s of a first sync's CPU at a million records.
 */
export function secretRedactor(knownSecrets: readonly (string | undefined)[] = []): Redactor {
  // Longest first, so a secret that contains another is removed whole; very short values would erase ordinary text.
  const values = knownSecrets.filter((value): value is string => typeof value === "string" && value.length >= 4).sort((a, b) => b.length - a.length);
  const spellings = values.map(spellingsOf);
  return (text) => {
    let result = text;
    for (const spelling of spellings) result = result.replace(spelling, redactedMarker);
    for (const [pattern, replacement] of patterns) result = result.replace(pattern, replacement);
    return result;
  };
}

/** Removes credentials from a string: the known secret values of the call, however encoded, then anything shaped like one. */
export function redactText(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  return secretRedactor(knownSecrets)(text);
}

/** A copy of `value` (string, array, object) with credentials removed; secret-named keys lose their values. */
export function redactSecrets<T>(value: T, knownSecrets: readonly (string | undefined)[] = []): T {
  const visit = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") return redactText(item, knownSecrets);
    if (depth > 20 || item === null || typeof item !== "object") return item;
    if (Array.isArray(item)) return item.map((element) => visit(element, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(item)) {
      copy[key] = secretKeyPattern.test(key) && element !== null && element !== undefined ? redactedMarker : visit(element, depth + 1);
    }
    return copy;
  };
  return visit(value, 0) as T;
}

/**
 * A URL as the attempt history may show it: path only for the API (query secrets replaced), and for
 * an upload address the host with its one-time token path segments and whole query hidden.
 */
export function describeRequestPath(url: URL, options: { upload?: boolean } = {}): string {
  if (options.upload) {
    // A long random segment is the address's capability; presigned queries carry signatures.
    const path = url.pathname
      .split("/")
      .map((segment) => (/^[A-Za-z0-9_-]{16,}$/.test(segment) ? redactedMarker : segment))
      .join("/");
    return `${url.host}${path}${url.search ? `?${redactedMarker}` : ""}`;
  }
  const query = [...url.searchParams.keys()].length
    ? `?${[...url.searchParams.entries()]
        .map(([name, value]) => `${name}=${secretKeyPattern.test(name) ? redactedMarker : encodeURIComponent(value)}`)
        .join("&")}`
    : "";
  return `${url.pathname}${query}`;
}

/** At most `limit` characters, so a huge error page does not flood the history. */
export function truncateText(text: string, limit = 2000): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}
