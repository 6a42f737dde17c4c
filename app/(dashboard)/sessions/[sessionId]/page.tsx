import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/layout/page-header";
import { Prefetched } from "@/components/queries/prefetched";
import { SessionLive } from "@/components/sessions/session-live";
import { getDatabase } from "@/db/client";
import { requirePageUser } from "@/lib/auth/guard";
import { permissionsOf } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { queryKeys } from "@/lib/queries/query-keys";
import { getSessionView, type SessionView } from "@/lib/sync/read-session-view";
import { SessionId } from "@/lib/sync/session-inputs";

export const metadata: Metadata = { title: "Sync session" };

export default async function SessionPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const user = await requirePageUser({ action: "session.view" });
  const parsed = SessionId.safeParse(await params);
  if (!parsed.success) notFound();
  let view: SessionView;
  try {
    // Owners: only their own locations' sessions; another's is the same 404 as an unknown id.
    view = await getSessionView({ db: getDatabase(), actor: user }, parsed.data);
  } catch (error) {
    if (error instanceof DomainError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <>
      <PageHeader title={`Sync session · ${view.session.locationName}`} description={`Session ${view.session.id}`} />
      <Prefetched entries={[{ queryKey: queryKeys.session(view.session.id), data: view }]}>
        <SessionLive sessionId={view.session.id} permissions={permissionsOf(user)} />
      </Prefetched>
    </>
  );
}
