"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

const items = [
  { href: "/locations", label: "Locations", staffOnly: false },
  { href: "/sessions", label: "Sessions", staffOnly: false },
  { href: "/fleet", label: "Fleet", staffOnly: true },
  { href: "/settings", label: "Settings", staffOnly: false },
];

/** `attentionCount`: locations the user may see that need attention (counted by the layout, on the server). */
export function NavLinks({ attentionCount, isStaff }: { attentionCount: number; isStaff: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-row flex-wrap gap-1 md:flex-col">
      {items
        .filter((item) => isStaff || !item.staffOnly)
        .map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={cn("rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100", active && "bg-slate-900 text-white hover:bg-slate-800")}
            >
              {item.label}
            </Link>
          );
        })}
      {attentionCount > 0 ? (
        <Link
          href="/locations?status=needs_attention"
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
