/** Only a path on this site may follow sign-in: never another origin (open redirect). */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/locations";
  return path;
}
