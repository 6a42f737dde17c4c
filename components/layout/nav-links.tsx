"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

const items = [
  { href: "/locations", label: "Locations" },
  { href: "/sessions", label: "Sessions" },
  { href: "/settings", label: "Settings" },
];

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-row gap-1 md:flex-col">
      {items.map((item) => {
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
    </nav>
  );
}
