export type SearchParams = Record<string, string | string[] | undefined>;

/** First value of each parameter; empty ones (a GET form's "Any") count as absent. */
export function queryInputOf(searchParams: SearchParams): Record<string, string> {
  const entries = Object.entries(searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]);
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** The same URL with some parameters replaced (undefined removes one). */
export function hrefWith(
  path: string,
  current: Record<string, string | number | undefined>,
  changes: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...current, ...changes })) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
