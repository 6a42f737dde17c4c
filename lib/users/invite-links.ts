import { createHash, randomBytes } from "node:crypto";
import { isNull, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { userInvites } from "@/db/schema";

export const INVITE_TTL_HOURS = 72;

/** Why no link gives a single sign-on account a password: it would let the person past the company's provider. */
export const SINGLE_SIGN_ON_NO_PASSWORD = "This person signs in through the company's single sign-on: a link cannot give the account a password.";

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Issues a one-time link token; only its hash is stored. One statement against the
 * database's "one unused link per user" index: a new link replaces the user's unused
 * one, even when several are issued at the same moment, so only the last one works.
 */
export async function issueInvite(
  db: DatabaseOrTransaction,
  input: { userId: string; createdBy: string | null; locationId?: string | null; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_HOURS * 60 * 60 * 1000);
  await db
    .insert(userInvites)
    .values({
      userId: input.userId,
      tokenHash: hashInviteToken(token),
      createdBy: input.createdBy,
      locationId: input.locationId ?? null,
      createdAt: now,
      expiresAt,
    })
    .onConflictDoUpdate({
      target: userInvites.userId,
      targetWhere: isNull(userInvites.usedAt),
      set: {
        tokenHash: sql`excluded.token_hash`,
        createdBy: sql`excluded.created_by`,
        // A plain new link (the users page) keeps the location an owner was invited for.
        locationId: sql`coalesce(excluded.location_id, ${userInvites.locationId})`,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
    });
  return { token, expiresAt };
}

export function invitePath(token: string): string {
  return `/invite/${token}`;
}
