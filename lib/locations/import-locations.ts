import { eq, inArray, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locationMembers, locations, users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertCan, joinsLocationsAsMember } from "@/lib/auth/permissions";
import type { OperationContext } from "@/lib/operations/context";
import { createLocation } from "./create-location";
import { inviteLocationOwner } from "./invite-location-owner";
import type { ImportProblem, LocationImportInput } from "./location-import-inputs";
import { parseLocationCsv, type ImportRow } from "./parse-location-csv";

export interface ImportedOwner {
  email: string;
  /** "invite": a one-time link to hand over (it sets their password); "member_added": they have a password already. */
  kind: "invite" | "member_added";
  path?: string;
  expiresAt?: Date;
  locations: string[];
}

export interface LocationImportResult {
  dryRun: boolean;
  /** The rows that pass every check: what is (or would be) created. */
  rows: { row: number; name: string; environment: string; upstreamLocationId: string; ownerEmail: string | null }[];
  /** Every problem of every row; nothing is created while there is one. */
  problems: ImportProblem[];
  created: { id: string; name: string }[];
  owners: ImportedOwner[];
}

/**
 * Bulk onboarding from a CSV file. The dry run parses and checks every row (the location schema, duplicates in the
 * file, upstream IDs already taken, owners' emails that are staff or deactivated) and reports each problem with its
 * row and column. The import does the same checks inside one transaction and, only when there is no problem, creates
 * every location and invites their owners (one link per owner, a member of each of their locations): all or nothing.
 */
export async function importLocations(ctx: OperationContext, input: LocationImportInput): Promise<LocationImportResult> {
  const { db, actor } = ctx;
  assertCan(actor, "location.import");
  const parsed = parseLocationCsv(input.csv);
  const check = async (tx: DatabaseOrTransaction) => [...parsed.problems, ...(await crossCheck(tx, parsed.rows))].sort((a, b) => a.row - b.row);
  const summary = (problems: ImportProblem[]) => {
    const bad = new Set(problems.map((problem) => problem.row));
    return parsed.rows
      .filter((row) => !bad.has(row.row))
      .map(({ row, location, ownerEmail }) => ({
        row,
        name: location.name,
        environment: location.environment,
        upstreamLocationId: location.upstreamLocationId,
        ownerEmail,
      }));
  };

  if (input.dryRun) {
    const problems = await check(db);
    return { dryRun: true, rows: summary(problems), problems, created: [], owners: [] };
  }
  return db.transaction(async (tx) => {
    // One import at a time: two imports of overlapping files would pass each other's checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('locations.import'))`);
    const problems = await check(tx);
    if (problems.length) return { dryRun: false, rows: summary(problems), problems, created: [], owners: [] };
    const txCtx = { ...ctx, db: tx };
    const created: { id: string; name: string; row: ImportRow }[] = [];
    for (const row of parsed.rows) {
      const location = await createLocation(txCtx, row.location);
      created.push({ id: location.id, name: location.name, row });
    }
    const owners = await inviteOwners(txCtx, created);
    await recordAuditEvent(tx, {
      actor,
      action: "location.imported",
      details: { locations: created.length, owners: owners.length },
    });
    return { dryRun: false, rows: summary([]), problems: [], created: created.map(({ id, name }) => ({ id, name })), owners };
  });
}

/** Each owner once: the first of their locations gets the invitation, the others the membership directly. */
async function inviteOwners(ctx: OperationContext, created: { id: string; name: string; row: ImportRow }[]): Promise<ImportedOwner[]> {
  const byOwner = new Map<string, { id: string; name: string }[]>();
  for (const location of created) {
    if (!location.row.ownerEmail) continue;
    byOwner.set(location.row.ownerEmail, [...(byOwner.get(location.row.ownerEmail) ?? []), location]);
  }
  const owners: ImportedOwner[] = [];
  for (const [email, [first, ...rest]] of byOwner) {
    const invitation = await inviteLocationOwner(ctx, { locationId: first!.id, email, name: "" });
    if (rest.length) {
      const [owner] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email));
      await ctx.db
        .insert(locationMembers)
        .values(rest.map((location) => ({ locationId: location.id, userId: owner!.id })))
        .onConflictDoNothing();
    }
    owners.push({ ...invitation, locations: [first!, ...rest].map((location) => location.name) });
  }
  return owners;
}

/** Problems no single row shows: a key twice in the file, a key another location holds, an owner who cannot be one. */
async function crossCheck(db: DatabaseOrTransaction, rows: ImportRow[]): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const firstRowOfKey = new Map<string, number>();
  for (const { row, location } of rows) {
    const key = `${location.environment}\u0000${location.upstreamLocationId}`;
    const earlier = firstRowOfKey.get(key);
    if (earlier) problems.push({ row, field: "upstream_location_id", reason: `is also in row ${earlier} (${location.environment})` });
    else firstRowOfKey.set(key, row);
  }
  if (rows.length === 0) return problems;

  const taken = await db
    .select({ environment: locations.environment, upstreamLocationId: locations.upstreamLocationId, name: locations.name })
    .from(locations)
    .where(inArray(locations.upstreamLocationId, [...new Set(rows.map((row) => row.location.upstreamLocationId))]));
  for (const { row, location } of rows) {
    const holder = taken.find((t) => t.environment === location.environment && t.upstreamLocationId === location.upstreamLocationId);
    if (holder) problems.push({ row, field: "upstream_location_id", reason: `is already used by location ${holder.name} (${location.environment})` });
  }

  const emails = [...new Set(rows.flatMap((row) => (row.ownerEmail ? [row.ownerEmail] : [])))];
  if (emails.length) {
    const accounts = await db
      .select({ email: sql<string>`lower(${users.email})`, role: users.role, active: users.active })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, emails));
    for (const { row, ownerEmail } of rows) {
      const account = accounts.find((candidate) => candidate.email === ownerEmail);
      if (!account) continue;
      if (!joinsLocationsAsMember(account.role))
        problems.push({ row, field: "owner_email", reason: "belongs to a staff account, which sees every location already" });
      else if (!account.active) problems.push({ row, field: "owner_email", reason: "belongs to a deactivated account" });
    }
  }
  return problems;
}
