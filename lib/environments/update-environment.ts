import { and, eq, isNotNull } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { environments, locations } from "@/db/schema";
import { recordAuditEvent, type AuditActor } from "@/lib/audit/record-audit-event";
import { assertCan } from "@/lib/auth/permissions";
import { environmentSecretContext } from "@/lib/crypto/encrypted-columns";
import { sealSecret } from "@/lib/crypto/secret-box";
import { fieldProblemsOf } from "@/lib/http/problem";
import { DomainError, type FieldProblem } from "@/lib/errors/domain-error";
import { markTokensAgainstOrigin, originOf } from "@/lib/locations/location-token";
import type { OperationContext } from "@/lib/operations/context";
import { isProductionMode } from "@/lib/runtime/mode";
import { ensureEnvironments } from "./ensure-environments";
import { EnvironmentUpdateInput, type EnvironmentName, type EnvironmentView, type ParsedEnvironmentUpdate } from "./environment-inputs";
import { getEnvironmentView } from "./get-environment-view";

const RE_ENTER_REASON = "Re-enter it: the base URL or upload hosts changed, and a stored secret is never sent to a newly typed host.";

export type EnvironmentField = "baseUrl" | "uploadHosts" | "clientId" | "dataSourceName" | "dateTimeStyle" | "apiKey" | "clientSecret";

/**
 * Validates, seals the secrets and writes one environment in one transaction,
 * with an audit entry naming the changed fields (never their values).
 */
export async function updateEnvironment(
  ctx: OperationContext,
  { name, settings }: { name: EnvironmentName; settings: unknown },
): Promise<EnvironmentView> {
  const { db, actor } = ctx;
  assertCan(actor, "environments.manage");
  const parsed = EnvironmentUpdateInput.safeParse(settings);
  if (!parsed.success) {
    const fields = fieldProblemsOf(parsed.error);
    throw new DomainError("INVALID", fields.map((field) => `${field.field}: ${field.reason}`).join("; "), fields);
  }
  const update = parsed.data;
  if (isProductionMode() && !update.baseUrl.startsWith("https://")) {
    // A production upstream receives API keys and tokens: never over plain http.
    throw new DomainError("INVALID", "baseUrl: Must start with https:// in production mode", [
      { field: "baseUrl", reason: "Must start with https:// in production mode" },
    ]);
  }
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
    if (update.dateTimeStyle !== undefined && update.dateTimeStyle !== stored.dateTimeStyle) changed.push("dateTimeStyle");
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
        ...(update.dateTimeStyle !== undefined && { dateTimeStyle: update.dateTimeStyle }),
        ...(update.apiKey !== undefined && { apiKeyEncrypted: sealSecret(update.apiKey, environmentSecretContext.apiKey(name)) }),
        ...(update.clientSecret !== undefined && {
          clientSecretEncrypted: sealSecret(update.clientSecret, environmentSecretContext.clientSecret(name)),
        }),
        updatedAt: new Date(),
        updatedBy: actor.id,
      })
      .where(eq(environments.name, name));

    const target = { type: "environment", id: name, label: name };
    const addressChange =
      stored.baseUrl !== null && originOf(stored.baseUrl) !== originOf(update.baseUrl)
        ? await moveAddress(tx, actor, name, stored.baseUrl, update)
        : null;

    const credentialsChanged = changed.includes("apiKey") || changed.includes("clientSecret");
    await recordAuditEvent(tx, {
      actor,
      action: credentialsChanged ? "environment.credentials_changed" : "environment.updated",
      target,
      details: { changedFields: changed, ...(addressChange && { locationsNeedingReconnect: addressChange.needingReconnect }) },
    });
  });
  return getEnvironmentView(ctx, { name });
}

/**
 * The base URL names another origin. Tokens go only to the origin that issued them, so the connected locations need
 * reconnecting, unless the admin confirmed the service itself moved: then the tokens of the old origin move along (audited).
 */
async function moveAddress(
  tx: DatabaseOrTransaction,
  actor: AuditActor,
  name: EnvironmentName,
  storedBaseUrl: string,
  update: ParsedEnvironmentUpdate,
) {
  const from = originOf(storedBaseUrl);
  const to = originOf(update.baseUrl);
  if (update.tokensMoveToNewAddress) {
    const moved = await tx
      .update(locations)
      .set({ locationTokenOrigin: to })
      .where(and(eq(locations.environment, name), isNotNull(locations.locationTokenEncrypted), eq(locations.locationTokenOrigin, from)))
      .returning({ id: locations.id });
    await recordAuditEvent(tx, {
      actor,
      action: "environment.location_tokens_moved",
      target: { type: "environment", id: name, label: name },
      details: { from, to, locations: moved.length },
    });
  }
  return { needingReconnect: await markTokensAgainstOrigin(tx, name, to) };
}

function sameHosts(a: readonly string[], b: readonly string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((host, index) => host === right[index]);
}
