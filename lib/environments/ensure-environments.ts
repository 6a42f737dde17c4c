import type { DatabaseOrTransaction } from "@/db/client";
import { environments } from "@/db/schema";
import { environmentNames } from "./environment-inputs";

/** Both environments always exist; rows are created empty on first read. */
export async function ensureEnvironments(db: DatabaseOrTransaction): Promise<void> {
  await db
    .insert(environments)
    .values(environmentNames.map((name) => ({ name })))
    .onConflictDoNothing();
}
