import { sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseOrTransaction } from "@/db/client";
import { recordAuditEvent, type AuditActor } from "@/lib/audit/record-audit-event";
import { getConfig, type Config } from "@/lib/config/config";
import type { OperationContext } from "@/lib/operations/context";
import { encryptedColumnLabel, encryptedColumns, type EncryptedColumn } from "./encrypted-columns";
import { generateSecretKey, loadKeyring, readKeyFile, writeKeyFile, type Keyring } from "./keyring";
import { keyIdOf, openSecret, sealSecret } from "./secret-box";

export interface RotationResult {
  currentKeyId: string;
  /** Re-encrypted values per `table.column`. */
  reencrypted: Record<string, number>;
  /** Values already under the current key, per `table.column`. */
  unchanged: Record<string, number>;
  /** Key ids removed from the key file (embedded default only). */
  droppedKeyIds: string[];
}

type Row = Record<string, string | null>;

function selectSealed(column: EncryptedColumn, lock: boolean): SQL {
  const keys = sql.join(
    column.keyColumns.map((name) => sql`${sql.identifier(name)}::text as ${sql.identifier(name)}`),
    sql`, `,
  );
  const query = sql`select ${keys}, ${sql.identifier(column.column)} as sealed from ${sql.identifier(column.table)} where ${sql.identifier(column.column)} is not null`;
  return lock ? sql`${query} for update` : query;
}

/** Re-encrypts every sealed value not under the keyring's current key, in one transaction with row locks. */
export async function rotateSecrets(db: Database, keyring: Keyring, actor: AuditActor): Promise<Omit<RotationResult, "droppedKeyIds">> {
  return db.transaction(async (tx) => {
    const reencrypted: Record<string, number> = {};
    const unchanged: Record<string, number> = {};
    for (const column of encryptedColumns) {
      const label = encryptedColumnLabel(column);
      reencrypted[label] = 0;
      unchanged[label] = 0;
      const rows = (await tx.execute(selectSealed(column, true))) as unknown as Row[];
      for (const row of rows) {
        const sealed = row.sealed!;
        if (keyIdOf(sealed) === keyring.current.id) {
          unchanged[label]! += 1;
          continue;
        }
        const key = Object.fromEntries(column.keyColumns.map((name) => [name, row[name]!]));
        const context = column.context(key);
        const resealed = sealSecret(openSecret(sealed, context, keyring), context, keyring);
        const where = sql.join(
          column.keyColumns.map((name) => sql`${sql.identifier(name)}::text = ${key[name]}`),
          sql` and `,
        );
        await tx.execute(sql`update ${sql.identifier(column.table)} set ${sql.identifier(column.column)} = ${resealed} where ${where}`);
        reencrypted[label]! += 1;
      }
    }
    await recordAuditEvent(tx, {
      actor,
      action: "secrets.rotated",
      target: { type: "keyring", id: keyring.current.id, label: `key ${keyring.current.id}` },
      details: { currentKeyId: keyring.current.id, reencrypted, unchanged },
    });
    return { currentKeyId: keyring.current.id, reencrypted, unchanged };
  });
}

/** Key ids that sealed values in the database are under. */
export async function listKeyIdsInUse(db: DatabaseOrTransaction): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const column of encryptedColumns) {
    const rows = (await db.execute(selectSealed(column, false))) as unknown as Row[];
    for (const row of rows) ids.add(keyIdOf(row.sealed!));
  }
  return ids;
}

/**
 * `secrets:rotate`. With APP_SECRET_KEY the operator already made the new key
 * current (old one in APP_SECRET_KEY_PREVIOUS): re-encrypt. With the embedded
 * default's key file: generate a new key, make it current with the old ones as
 * previous, re-encrypt, then drop previous keys no value uses any more.
 */
export async function runSecretsRotation(ctx: OperationContext, input: { config?: Config } = {}): Promise<RotationResult> {
  const { db, actor } = ctx;
  const config = input.config ?? getConfig();
  let keyring = loadKeyring(config);
  if (keyring.source === "environment") return { ...(await rotateSecrets(db, keyring, actor)), droppedKeyIds: [] };
  const file = keyring.keyFilePath!;
  const before = readKeyFile(file);
  writeKeyFile(file, { current: generateSecretKey(), previous: [before.current, ...before.previous] });
  keyring = loadKeyring(config);
  const result = await rotateSecrets(db, keyring, actor);
  const inUse = await listKeyIdsInUse(db);
  const keep = keyring.previous.filter((key) => inUse.has(key.id));
  const droppedKeyIds = keyring.previous.filter((key) => !inUse.has(key.id)).map((key) => key.id);
  const contents = readKeyFile(file);
  writeKeyFile(file, {
    current: contents.current,
    previous: contents.previous.filter((encoded) => keep.some((key) => key.material.equals(Buffer.from(encoded.trim(), "base64")))),
  });
  return { ...result, droppedKeyIds };
}
