import { createHash, randomBytes } from "node:crypto";
import type { DatabaseOrTransaction } from "@/db/client";
import { userInvites } from "@/db/schema";

export const INVITE_TTL_HOURS = 72;

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Issues a one-time link token; only its hash is stored. */
export async function issueInvite(
  db: DatabaseOrTransaction,
  input: { userId: string; createdBy: string | null; locationId?: string | null; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_HOURS * 60 * 60 * 1000);
  await db.insert(userInvites).values({
    userId: input.userId,
    tokenHash: hashInviteToken(token),
    createdBy: input.createdBy,
    locationId: input.locationId ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

export function invitePath(token: string): string {
  return `/invite/${token}`;
}
