import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { settingsSections } from "@/components/layout/settings-sections";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requirePageUser();
  const visible = settingsSections.filter((section) => can(user, section.action));
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
