// PostgreSQL's text form of a jsonb value: object keys ordered by length, then byte by byte; ", " between
// elements and ": " after keys; strings escaped as JSON escapes them.

function compareKeys(first: string, second: string): number {
  const [a, b] = [Buffer.from(first), Buffer.from(second)];
  return a.length - b.length || Buffer.compare(a, b);
}

export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([first], [second]) => compareKeys(first, second));
    return `{${entries.map(([key, element]) => `${JSON.stringify(key)}: ${jsonbText(element)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}
