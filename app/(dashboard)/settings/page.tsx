import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";
import type { Role } from "@/lib/auth/roles";

export const metadata: Metadata = { title: "Settings" };

const sections: { href: string; title: string; description: string; roles: Role[] }[] = [
  { href: "/settings/users", title: "Users", description: "Invite people, set their role, deactivate accounts.", roles: ["admin"] },
  { href: "/settings/environments", title: "Environments", description: "Staging and production credentials of the upstream service.", roles: ["admin"] },
  { href: "/settings/alerts", title: "Alerts", description: "Webhook and email alerts when a location's sync fails and recovers.", roles: ["admin"] },
  { href: "/settings/audit", title: "Audit log", description: "Sign-ins, user changes and credential changes.", roles: ["admin"] },
  { href: "/settings/sandbox", title: "Sandbox inspector", description: "What the built-in upstream simulator holds.", roles: ["admin", "engineer"] },
];

export default async function SettingsPage() {
  const user = await requirePageUser();
  const visible = sections.filter((section) => section.roles.includes(user.role));
  return (
    <>
      <PageHeader title="Settings" />
      {visible.length === 0 ? (
        <p className="text-sm text-slate-600">There are no settings for your role.</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          {visible.map((section) => (
            <Link key={section.href} href={section.href} className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
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
