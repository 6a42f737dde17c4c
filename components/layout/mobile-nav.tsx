"use client";

import { MenuIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import type { Permissions } from "@/lib/auth/permissions";
import { NavLinks } from "./nav-links";

/** Below `md`: the menu button and the sheet holding the navigation and the signed-in user. */
export function MobileNav({
  attentionCount,
  permissions,
  userSummary,
}: {
  attentionCount: number;
  permissions: Permissions;
  userSummary: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger className="relative inline-flex size-10 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
        <MenuIcon aria-hidden="true" className="size-6" />
        <span className="sr-only">
          Open menu
          {attentionCount > 0 ? ` (${attentionCount} ${attentionCount === 1 ? "location needs" : "locations need"} attention)` : ""}
        </span>
        {attentionCount > 0 ? <span aria-hidden="true" className="absolute right-1.5 top-1.5 size-2.5 rounded-full bg-red-700" /> : null}
      </SheetTrigger>
      <SheetContent side="left" closeLabel="Close menu" aria-describedby={undefined}>
        <SheetTitle>Location Sync</SheetTitle>
        <NavLinks attentionCount={attentionCount} permissions={permissions} onNavigate={() => setOpen(false)} />
        <div className="mt-auto flex flex-col gap-2 border-t border-slate-100 pt-4 text-sm">{userSummary}</div>
      </SheetContent>
    </Sheet>
  );
}
