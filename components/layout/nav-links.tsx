"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permissions } from "@/lib/auth/permissions";
import { hasSettings } from "./settings-sections";
import { cn } from "@/lib/utils";

/** `shown`: whether the link's page has anything for the user; links to pages they may not open, or that would be empty, are not shown. */
const items: { href: string; label: string; shown: (permissions: Permissions) => boolean }[] = [
  { href: "/locations", label: "Locations", shown: (permissions) => permissions["location.view"] },
  { href: "/sessions", label: "Sessions", shown: (permissions) => permissions["session.view"] },
  { href: "/fleet", label: "Fleet", shown: (permissions) => permissions["fleet.view"] },
  { href: "/settings", label: "Settings", shown: hasSettings },
];

/**
 * `attentionCount`: locations the user may see that need attention; `permissions`: what the user may do
 * (lib/auth/permissions). Both computed by the layout, on the server: the pages check again.
 */
export function NavLinks({
  attentionCount,
  permissions,
  onNavigate,
}: {
  attentionCount: number;
  permissions: Permissions;
  /** Called when a link is followed (the sheet closes). */
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-1">
      {items
        .filter((item) => item.shown(permissions))
        .map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              onClick={onNavigate}
              className={cn(
                "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100",
                active && "bg-slate-900 text-white hover:bg-slate-800",
              )}
            >
              {item.label}
            </Link>
          );
        })}
      {attentionCount > 0 ? (
        <Link
          href="/locations?status=needs_attention"
          onClick={onNavigate}
          className="flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm font-medium text-red-900 hover:bg-red-50"
          data-testid="attention-badge"
        >
          Needs attention
          <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">
            {attentionCount}
            <span className="sr-only">{attentionCount === 1 ? " location" : " locations"}</span>
          </span>
        </Link>
      ) : null}
    </nav>
  );
}
