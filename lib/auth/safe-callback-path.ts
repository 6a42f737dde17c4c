export const DEFAULT_CALLBACK_PATH = "/locations";

// Stands in for our origin when the caller does not know it: resolving against it shows whether a value leaves the site.
const PLACEHOLDER_ORIGIN = "http://location-sync.invalid";

// Browsers drop tabs and newlines inside a URL and read "\" as "/", so "/\t/evil.example" is "//evil.example" to them.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * Where to go after sign-in: only a path that resolves to our own origin, as the
 * parsed URL's path, query and hash (percent-encoded, so always a valid Location
 * header). Anything else, and any control character or backslash, goes to the
 * default page: no open redirect, no 500.
 */
export function safeCallbackPath(value: string | string[] | undefined, ownOrigin: string = PLACEHOLDER_ORIGIN): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || raw.length > 2048 || UNSAFE_CHARACTERS.test(raw)) return DEFAULT_CALLBACK_PATH;
  let base: URL;
  let url: URL;
  try {
    base = new URL(ownOrigin);
    url = new URL(raw, base);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  if (url.origin !== base.origin) return DEFAULT_CALLBACK_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise to "//host" ("/.//evil.example"), which a browser reads as another site.
  if (!path.startsWith("/") || path.startsWith("//")) return DEFAULT_CALLBACK_PATH;
  return path;
}
