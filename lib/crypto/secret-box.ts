import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ConfigurationError } from "@/lib/config/config";
import { findKey, getKeyring, type Keyring } from "./keyring";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value could not be opened. The message names the context and key id, never the value or the key. */
export class SecretBoxError extends ConfigurationError {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/**
 * AES-256-GCM under the keyring's current key. `context` (e.g.
 * `environments.api_key:staging`) is authenticated, so a sealed value copied to
 * another row or column no longer opens.
 * Format: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
export function sealSecret(plaintext: string, context: string, keyring: Keyring = getKeyring()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyring.current.material, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, keyring.current.id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(
    ".",
  );
}

export function openSecret(sealed: string, context: string, keyring: Keyring = getKeyring()): string {
  const parts = parseSealed(sealed, context);
  const key = findKey(keyring, parts.keyId);
  if (!key) {
    const where = keyring.source === "environment" ? "APP_SECRET_KEY or APP_SECRET_KEY_PREVIOUS" : `the key file ${keyring.keyFilePath}`;
    throw new SecretBoxError(
      `Cannot decrypt ${context}: it was sealed under key ${parts.keyId}, which is not in ${where}. Put that key back (as a previous key) and run secrets:rotate.`,
    );
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.material, parts.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError(
      `Cannot decrypt ${context} under key ${parts.keyId}: the value was altered, moved from another row or column, or sealed with a different key of the same id.`,
    );
  }
}

/** The id of the key a sealed value was sealed under (no decryption). */
export function keyIdOf(sealed: string): string {
  return parseSealed(sealed, "value").keyId;
}

export function isSealedSecret(value: string): boolean {
  try {
    parseSealed(value, "value");
    return true;
  } catch {
    return false;
  }
}

function parseSealed(sealed: string, context: string) {
  const parts = sealed.split(".");
  const [version, keyId, iv, tag, ciphertext] = parts;
  if (parts.length !== 5 || version !== VERSION || !keyId || !/^[0-9a-f]{8}$/.test(keyId) || !iv || !tag || ciphertext === undefined) {
    throw new SecretBoxError(
      `Cannot decrypt ${context}: the stored value is not a sealed secret (expected ${VERSION}.<keyId>.<iv>.<tag>.<ciphertext>).`,
    );
  }
  const decoded = { keyId, iv: Buffer.from(iv, "base64url"), tag: Buffer.from(tag, "base64url"), ciphertext: Buffer.from(ciphertext, "base64url") };
  if (decoded.iv.length !== IV_BYTES || decoded.tag.length !== TAG_BYTES) {
    throw new SecretBoxError(`Cannot decrypt ${context}: the sealed value is truncated or altered.`);
  }
  return decoded;
}

/** What the UI may show about a secret: "set · ends in 1a2b", or just "set" for short values. */
export function secretHint(plaintext: string): string {
  return plaintext.length < 12 ? "set" : `set · ends in ${plaintext.slice(-4)}`;
}
