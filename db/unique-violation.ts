/** The unique index a failed write violated (PostgreSQL 23505), found along the error's causes; null for any other error. */
export function violatedUniqueIndex(error: unknown): string | null {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const postgresError = cause as Error & { code?: string; constraint_name?: string };
    if (postgresError.code === "23505") return postgresError.constraint_name ?? null;
  }
  return null;
}
