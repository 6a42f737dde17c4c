import type { ReactNode } from "react";
import type { CurrentUser } from "@/lib/auth/current-user";
import { can, permissionsOf } from "@/lib/auth/permissions";
import { roleLabels } from "@/lib/auth/roles";
import { UtcToggle } from "@/components/time/utc-toggle";
import { MobileNav } from "./mobile-nav";
import { NavLinks } from "./nav-links";
import { SignOutButton } from "./sign-out-button";

function UserSummary({ user }: { user: CurrentUser }) {
  return (
    <>
      <div>
        <div className="truncate font-medium" data-testid="signed-in-email">
          {user.email}
        </div>
        <div className="text-slate-600" data-testid="signed-in-role">
          {roleLabels[user.role]}
        </div>
      </div>
      {can(user, "times.utc") ? <UtcToggle /> : null}
      <SignOutButton />
    </>
  );
}

/** A sidebar from `md` up; below it a one-line header whose menu button opens the navigation in a sheet. */
export function AppShell({ user, attentionCount, children }: { user: CurrentUser; attentionCount: number; children: ReactNode }) {
  const permissions = permissionsOf(user);
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white px-2 md:hidden">
        <MobileNav attentionCount={attentionCount} permissions={permissions} userSummary={<UserSummary user={user} />} />
        <div className="text-base font-semibold tracking-tight">Location Sync</div>
      </header>
      <aside className="hidden flex-col gap-4 border-r border-slate-200 bg-white px-4 py-4 md:flex md:w-60 md:shrink-0">
        <div className="text-lg font-semibold tracking-tight">Location Sync</div>
        <NavLinks attentionCount={attentionCount} permissions={permissions} />
        <div className="mt-auto flex flex-col gap-2 border-t border-slate-100 pt-4 text-sm">
          <UserSummary user={user} />
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}
