import { and, desc, eq, gte, ilike, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { auditLog } from "@/db/schema";
import { assertCan, type Actor } from "@/lib/auth/permissions";
import { isRealUtcInstant } from "@/lib/http/page-cursor";
import type { OperationContext } from "@/lib/operations/context";
import { calendarDate } from "@/lib/validation/calendar-date";
import { safeText } from "@/lib/validation/safe-text";

export const AuditLogQuery = z.object({
  action: safeText()
    .trim()
    .max(80)
    .optional()
    .transform((value) => value || undefined),
  actor: safeText()
    .trim()
    .max(254)
    .optional()
    .transform((value) => value || undefined),
  from: calendarDate.optional().or(z.literal("").transform(() => undefined)),
  to: calendarDate.optional().or(z.literal("").transform(() => undefined)),
  // Keyset cursor "<iso time>_<id>" of the last row shown: deep pages stay as fast as the first.
  // The time must be a real instant and the id fit a JavaScript number, or the query would fail.
  before: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z_\d{1,15}$/, { error: "is not a valid cursor", abort: true })
    .refine((cursor) => isRealUtcInstant(cursor.split("_")[0]!), "is not a valid cursor")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

/** One page of the audit log, newest first: admins only ("audit.view"). */
export async function listAuditEvents(ctx: OperationContext<Actor>, query: AuditLogQuery) {
  const { db } = ctx;
  assertCan(ctx.actor, "audit.view");
  const conditions: SQL[] = [];
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.actor) conditions.push(ilike(auditLog.actorEmail, `%${query.actor.replace(/[%_\\]/g, "\\$&")}%`));
  if (query.from) conditions.push(gte(auditLog.at, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) conditions.push(lt(auditLog.at, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  if (query.before) {
    const [at, id] = query.before.split("_") as [string, string];
    const atDate = new Date(at);
    conditions.push(or(lt(auditLog.at, atDate), and(eq(auditLog.at, atDate), lt(auditLog.id, Number(id))))!);
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { events: page, nextCursor: rows.length > query.limit && last ? `${last.at.toISOString()}_${last.id}` : null };
}
