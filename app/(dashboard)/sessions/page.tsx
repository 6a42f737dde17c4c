import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await requirePageUser();
  return (
    <>
      <PageHeader title="Sessions" description="Every sync session, step by step." />
      <Card>
        <CardContent>
          <p className="py-8 text-center text-sm text-slate-600">No sync sessions yet.</p>
        </CardContent>
      </Card>
    </>
  );
}
