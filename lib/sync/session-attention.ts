/** Attention reasons a sync session sets on its location start with this; a later successful session clears only these. */
export const SESSION_ATTENTION_PREFIX = "The last sync ";

/** A location's attention reason is about its last sync session, not about its connection. */
export function isSessionAttentionReason(reason: string | null): boolean {
  return reason !== null && reason.startsWith(SESSION_ATTENTION_PREFIX);
}
