import { sql } from "drizzle-orm";
import { locations } from "@/db/schema";
import { SESSION_ATTENTION_PREFIX } from "@/lib/sync/session-attention";

/** SQL twin of isSessionAttentionReason: the location's attention reason is its last sync session's. */
export const hasSessionAttention = sql`${locations.attentionReason} like ${SESSION_ATTENTION_PREFIX + "%"}`;

/**
 * A location has one attention reason. A sync session's ("… Resume it or close the upstream session.") says what only a
 * person can do next about that session, so a connection problem never replaces it: the problem then shows in the
 * location's last check (and in what a resume or close answers). Use with `.set()`.
 */
export function connectionAttention(reason: string, now: Date) {
  return {
    attentionReason: sql`case when ${hasSessionAttention} then ${locations.attentionReason} else ${reason} end`,
    attentionSince: sql`coalesce(${locations.attentionSince}, ${now.toISOString()}::timestamptz)`,
  };
}

/** Clears a connection problem; a sync session's reason stays until the engine or Close upstream session clears it. */
export const connectionAttentionCleared = {
  attentionReason: sql`case when ${hasSessionAttention} then ${locations.attentionReason} end`,
  attentionSince: sql`case when ${hasSessionAttention} then ${locations.attentionSince} end`,
};
