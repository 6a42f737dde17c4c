import type { DatabaseOrTransaction } from "@/db/client";
import { auditLog } from "@/db/schema";
import { systemActorAs, type OperationActor } from "@/lib/auth/permissions";

export type AuditAction =
  | "auth.sign_in"
  | "auth.sign_in_failed"
  | "auth.sign_in_throttled"
  | "auth.sign_out"
  | "user.created"
  | "user.invited"
  | "user.invite_accepted"
  | "user.role_changed"
  | "user.deactivated"
  | "user.reactivated"
  | "environment.updated"
  | "environment.credentials_changed"
  | "secrets.rotated"
  | (string & {});

export interface AuditActor {
  id: string | null;
  email: string | null;
  clientAddress?: string | null;
}

export interface AuditEvent {
  actor: AuditActor;
  action: AuditAction;
  target?: { type: string; id: string; label?: string };
  /** Never put a secret here: details are shown to admins as they are. */
  details?: Record<string, unknown>;
}

export async function recordAuditEvent(db: DatabaseOrTransaction, event: AuditEvent) {
  await db.insert(auditLog).values({
    actorUserId: event.actor.id,
    actorEmail: event.actor.email,
    clientAddress: event.actor.clientAddress ?? null,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    targetLabel: event.target?.label ?? null,
    details: event.details ?? {},
  });
}

/** Jobs and seeding: trusted with every action (lib/auth/permissions), "system" in the audit log. */
export const systemActor: OperationActor = systemActorAs("system");
