import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { ChangePasswordForm } from "@/components/users/change-password-form";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const user = await requirePageUser({ action: "account.password" });
  return (
    <>
      <PageHeader title="Your account" description={`Signed in as ${user.email}.`} />
      <Card>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    </>
  );
}
