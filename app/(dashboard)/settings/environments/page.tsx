import type { Metadata } from "next";
import { EnvironmentForm } from "@/components/environments/environment-form";
import { PageHeader } from "@/components/layout/page-header";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { listEnvironmentViews } from "@/lib/environments/get-environment-view";

export const metadata: Metadata = { title: "Environments" };

export default async function EnvironmentsPage() {
  const user = await requirePageUser({ action: "environments.manage" });
  const environments = await listEnvironmentViews({ db: getDatabase(), actor: user });
  return (
    <>
      <PageHeader
        title="Environments"
        description="Where the upstream service lives and the credentials it issued. Secrets are encrypted at rest and never shown again after saving."
      />
      <div className="flex flex-col gap-6">
        {environments.map((environment) => (
          <EnvironmentForm key={environment.name} environment={environment} />
        ))}
      </div>
    </>
  );
}
