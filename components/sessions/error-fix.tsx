import Link from "next/link";
import type { Permissions } from "@/lib/auth/permissions";

interface Fix {
  href: string;
  label: string;
  /** Who can act when the viewer may not follow the link. */
  otherwise: string;
}

/** The action that fixes a sync error, where there is one: matched on the words our own errors use (lib/sync, lib/upstream). */
export function fixFor(
  error: string,
  locationId: string,
  permissions: Permissions,
): { link?: { href: string; label: string }; hint?: string } | null {
  const fixes: [RegExp, Fix, boolean][] = [
    [
      /Settings → Environments|upload host|API key or client credentials/i,
      { href: "/settings/environments", label: "Open the environment settings", otherwise: "An admin fixes this under Settings → Environments." },
      permissions["environments.manage"],
    ],
    [
      /refused the credentials|Reconnect needed|not connected|access token/i,
      { href: `/locations/${locationId}/connect`, label: "Reconnect the location", otherwise: "The location's owner or support reconnects it." },
      permissions["location.connect"],
    ],
    [
      /no source key|source key/i,
      { href: `/locations/${locationId}/edit`, label: "Edit the location", otherwise: "Support sets the source key (Edit location)." },
      permissions["location.edit"],
    ],
    [
      /preview|invalid record|its records|does not match the upstream's rules/i,
      { href: `/locations/${locationId}/preview`, label: "Open the preview", otherwise: "" },
      permissions["preview.view"],
    ],
  ];
  for (const [pattern, fix, allowed] of fixes) {
    if (!pattern.test(error)) continue;
    return allowed ? { link: { href: fix.href, label: fix.label } } : fix.otherwise ? { hint: fix.otherwise } : null;
  }
  return null;
}

/** An error, once, with the action that fixes it. */
export function ErrorWithFix({ error, locationId, permissions }: { error: string; locationId: string; permissions: Permissions }) {
  const fix = fixFor(error, locationId, permissions);
  return (
    <div className="flex flex-col gap-1 text-sm text-red-800 sm:flex-row sm:items-baseline sm:gap-3">
      <p className="break-words">{error}</p>
      {fix?.link ? (
        <Link href={fix.link.href} className="shrink-0 font-medium text-blue-700 underline">
          {fix.link.label}
        </Link>
      ) : fix?.hint ? (
        <p className="shrink-0 text-slate-700">{fix.hint}</p>
      ) : null}
    </div>
  );
}
