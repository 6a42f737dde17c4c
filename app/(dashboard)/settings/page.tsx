import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";
import { can, type Action } from "@/lib/auth/permissions";

export const metadata: Metadata = { title: "Settings" };

/** `action`: the one the section's page takes; only the sections the user may open are listed. */
const sections: { href: string; title: string; description: string; action: Action }[] = [
  { href: "/settings/account", title: "Your account", description: "Change your password.", action: "account.password" },
  { href: "/settings/users", title: "Users", description: "Invite people, set their role, deactivate accounts.", action: "users.manage" },
  {
    href: "/settings/environments",
    title: "Environments",
    description: "Staging and production credentials of the upstream service.",
    action: "environments.manage",
  },
  {
    href: "/settings/alerts",
    title: "Alerts",
    description: "Webhook and email alerts when a location's sync fails and recovers.",
    action: "alerts.manage",
  },
  { href: "/settings/audit", title: "Audit log", description: "Sign-ins, user changes and credential changes.", action: "audit.view" },
  { href: "/settings/sandbox", title: "Sandbox inspector", description: "What the built-in upstream simulator holds.", action: "sandbox.inspect" },
];

export default async function SettingsPage() {
  const user = await requirePageUser();
  const visible = sections.filter((section) => can(user, section.action));
  return (
    <>
      <PageHeader title="Settings" />
      {visible.length === 0 ? (
        <p className="text-sm text-slate-600">There are no settings for your role.</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          {visible.map((section) => (
            <Link
              key={section.href}
              href={section.href}
              className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            >
              <Card className="h-full hover:border-slate-400">
                <CardHeader>
                  <CardTitle>{section.title}</CardTitle>
                  <CardDescription>{section.description}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          ))}
        </div>
      )}
    </>
  );
}
