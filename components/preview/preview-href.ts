import type { PreviewQuery } from "@/lib/preview/preview-inputs";

/** The preview page's URL for the current state with some parts changed (undefined removes a part). */
export function previewHref(
  locationId: string,
  query: PreviewQuery,
  changes: Partial<Record<keyof PreviewQuery, string | number | undefined>>,
): string {
  const merged: Record<string, string | number | undefined> = { ...query, ...changes };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) {
    if (value === undefined || value === "" || (key === "page" && value === 0) || (key === "sort" && value === "source")) continue;
    params.set(key, String(value));
  }
  return `/locations/${locationId}/preview?${params.toString()}`;
}
