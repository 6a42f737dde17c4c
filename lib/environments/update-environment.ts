import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { recordAuditEvent, type AuditActor } from "@/lib/audit/record-audit-event";
import { environmentSecretContext } from "@/lib/crypto/encrypted-columns";
import { sealSecret } from "@/lib/crypto/secret-box";
import { fieldProblemsOf } from "@/lib/http/problem";
import { DomainError, type FieldProblem } from "@/lib/errors/domain-error";
import { ensureEnvironments } from "./ensure-environments";
import { EnvironmentUpdateInput, type EnvironmentName, type EnvironmentView } from "./environment-inputs";
import { getEnvironmentView } from "./get-environment-view";

const RE_ENTER_REASON = "Re-enter it: the base URL or upload hosts changed, and a stored secret is never sent to a newly typed host.";

export type EnvironmentField = "baseUrl" | "uploadHosts" | "clientId" | "dataSourceName" | "apiKey" | "clientSecret";

/**
 * Validates, seals the secrets and writes one environment in one transaction,
 * with an audit entry naming the changed fields (never their values).
 */
export async function updateEnvironment(db: Database, actor: AuditActor, name: EnvironmentName, input: unknown): Promise<EnvironmentView> {
  const parsed = EnvironmentUpdateInput.safeParse(input);
  if (!parsed.success) {
    const fields = fieldProblemsOf(parsed.error);
    throw new DomainError("INVALID", fields.map((field) => `${field.field}: ${field.reason}`).join("; "), fields);
  }
  const update = parsed.data;
  await db.transaction(async (tx) => {
    await ensureEnvironments(tx);
    const [stored] = await tx.select().from(environments).where(eq(environments.name, name)).for("update");
    if (!stored) throw new DomainError("NOT_FOUND", `Environment ${name} not found.`);

    const destinationChanged = update.baseUrl !== stored.baseUrl || !sameHosts(update.uploadHosts, stored.uploadHosts);
    if (destinationChanged) {
      const missing: FieldProblem[] = [];
      if (update.apiKey === undefined) missing.push({ field: "apiKey", reason: RE_ENTER_REASON });
      if (update.clientSecret === undefined) missing.push({ field: "clientSecret", reason: RE_ENTER_REASON });
      if (missing.length) {
        throw new DomainError("INVALID", "The API key and client secret must be re-entered when the base URL or upload hosts change.", missing);
      }
    }

    const changed: EnvironmentField[] = [];
    if (update.baseUrl !== stored.baseUrl) changed.push("baseUrl");
    if (!sameHosts(update.uploadHosts, stored.uploadHosts)) changed.push("uploadHosts");
    if (update.clientId !== stored.clientId) changed.push("clientId");
    if (update.dataSourceName !== stored.dataSourceName) changed.push("dataSourceName");
    if (update.apiKey !== undefined) changed.push("apiKey");
    if (update.clientSecret !== undefined) changed.push("clientSecret");
    if (!changed.length) return;

    await tx
      .update(environments)
      .set({
        baseUrl: update.baseUrl,
        uploadHosts: update.uploadHosts,
        clientId: update.clientId,
        dataSourceName: update.dataSourceName,
        ...(update.apiKey !== undefined && { apiKeyEncrypted: sealSecret(update.apiKey, environmentSecretContext.apiKey(name)) }),
        ...(update.clientSecret !== undefined && { clientSecretEncrypted: sealSecret(update.clientSecret, environmentSecretContext.clientSecret(name)) }),
        updatedAt: new Date(),
        updatedBy: actor.id,
      })
      .where(eq(environments.name, name));

    const credentialsChanged = changed.includes("apiKey") || changed.includes("clientSecret");
    await recordAuditEvent(tx, {
      actor,
      action: credentialsChanged ? "environment.credentials_changed" : "environment.updated",
      target: { type: "environment", id: name, label: name },
      details: { changedFields: changed },
    });
  });
  return getEnvironmentView(db, name);
}

function sameHosts(a: readonly string[], b: readonly string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((host, index) => host === right[index]);
}
