import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";
import { can } from "@/lib/auth/permissions";
import { settingsSections } from "@/components/layout/settings-sections";
import { pluralize } from "@/lib/format/plural";
import { retentionPolicy } from "@/lib/retention/retention-policy";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requirePageUser();
  const visible = settingsSections.filter((section) => can(user, section.action));
  const retention = retentionPolicy();
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
      <Card className="mt-6" role="region" aria-label="Data retention">
        <CardHeader>
          <CardTitle>Data retention</CardTitle>
          <CardDescription>What the dashboard keeps, and for how long. A daily job removes the rest.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">{pluralize(retention.attemptDetailsDays, "day")}</dt>
            <dd>
              The request and response of each HTTP attempt to the upstream (headers and bodies). After that only the attempt&apos;s summary stays:
              method, path, status, duration, records and sizes.
            </dd>
            <dt className="font-medium">{pluralize(retention.sessionDays, "day")}</dt>
            <dd>Sync sessions with their steps, items and attempts (a session still queued or running is never removed).</dd>
            <dt className="font-medium">{pluralize(retention.auditLogDays, "day")}</dt>
            <dd>Audit log entries.</dd>
          </dl>
        </CardContent>
      </Card>
    </>
  );
}
