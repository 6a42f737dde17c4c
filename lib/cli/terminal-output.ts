import { escapeInvisibleCharactersInJson, escapeUnsafeCharacters } from "@/lib/validation/safe-text";

/**
 * A value from the database, the upstream or the command line, safe to print in a terminal:
 * control characters (escape sequences that recolour, move the cursor or retitle the window),
 * line breaks, zero-width and direction characters are shown as \uXXXX.
 */
export function forTerminal(value: string | null | undefined): string {
  return escapeUnsafeCharacters(value ?? "");
}

/** JSON output with the same characters escaped (JSON.stringify leaves DEL, C1 and direction characters raw). */
export function jsonForTerminal(value: unknown, space?: number): string {
  return escapeInvisibleCharactersInJson(JSON.stringify(value, null, space) ?? "null");
}
