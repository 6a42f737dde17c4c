import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigurationError, getConfig, SECRET_KEY_PATTERN, type Config } from "@/lib/config/config";
import { dataDirectory, isProductionMode } from "@/lib/runtime/mode";

export interface SecretKey {
  /** First 8 hex characters of the SHA-256 of the key: names the key inside sealed values, reveals nothing. */
  id: string;
  material: Buffer;
}

export interface Keyring {
  current: SecretKey;
  previous: SecretKey[];
  source: "environment" | "key-file";
  /** Set when the keys come from the embedded default's key file. */
  keyFilePath?: string;
}

export interface KeyFileContents {
  current: string;
  previous: string[];
}

export function keyIdForMaterial(material: Buffer): string {
  return createHash("sha256").update(material).digest("hex").slice(0, 8);
}

/** Parses a base64 key of exactly 32 bytes; the error names where it came from, never the value. */
export function parseSecretKey(encoded: string, source: string): SecretKey {
  const trimmed = encoded.trim();
  const material = SECRET_KEY_PATTERN.test(trimmed) ? Buffer.from(trimmed, "base64") : Buffer.alloc(0);
  if (material.length !== 32) {
    throw new ConfigurationError(`${source} must be the base64 encoding of exactly 32 random bytes (generate one with: openssl rand -base64 32).`);
  }
  return { id: keyIdForMaterial(material), material };
}

export function generateSecretKey(): string {
  return randomBytes(32).toString("base64");
}

export function keyFilePathOf(config: Config = getConfig()): string {
  return path.join(dataDirectory(config), "secret-keys.json");
}

/**
 * APP_SECRET_KEY (+ APP_SECRET_KEY_PREVIOUS, comma-separated) when set; otherwise,
 * outside production mode, the key file under DATA_DIR, created (mode 0600) on first use.
 */
export function loadKeyring(config: Config = getConfig()): Keyring {
  if (config.APP_SECRET_KEY) {
    const previous = config.APP_SECRET_KEY_PREVIOUS.map((value, index) => parseSecretKey(value, `APP_SECRET_KEY_PREVIOUS (entry ${index + 1})`));
    return withoutDuplicates({ current: parseSecretKey(config.APP_SECRET_KEY, "APP_SECRET_KEY"), previous, source: "environment" });
  }
  if (isProductionMode(config)) {
    throw new ConfigurationError(
      "APP_SECRET_KEY is not set. Production mode needs it to encrypt credentials (generate one with: openssl rand -base64 32).",
    );
  }
  const file = keyFilePathOf(config);
  const contents = readOrCreateKeyFile(file);
  return withoutDuplicates({
    current: parseSecretKey(contents.current, `"current" in ${file}`),
    previous: contents.previous.map((value, index) => parseSecretKey(value, `"previous"[${index}] in ${file}`)),
    source: "key-file",
    keyFilePath: file,
  });
}

function withoutDuplicates(keyring: Keyring): Keyring {
  const seen = new Set([keyring.current.id]);
  const previous = keyring.previous.filter((key) => !seen.has(key.id) && seen.add(key.id));
  return { ...keyring, previous };
}

export function readKeyFile(file: string): KeyFileContents {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new ConfigurationError(
      `The key file ${file} is not valid JSON. Restore it from a backup: without it stored credentials cannot be decrypted.`,
    );
  }
  const value = parsed as Partial<KeyFileContents>;
  if (typeof value.current !== "string" || !Array.isArray(value.previous) || !value.previous.every((entry) => typeof entry === "string")) {
    throw new ConfigurationError(`The key file ${file} must look like {"current": "<base64>", "previous": ["<base64>", ...]}.`);
  }
  return { current: value.current, previous: value.previous };
}

function readOrCreateKeyFile(file: string): KeyFileContents {
  try {
    return readKeyFile(file);
  } catch (error) {
    if (!isMissingFile(file)) throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, serialise({ current: generateSecretKey(), previous: [] }), { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600);
  } catch (error) {
    // Another process (dashboard or CLI) created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readKeyFile(file);
}

/** Replaces the key file atomically (write a 0600 temporary file, then rename). */
export function writeKeyFile(file: string, contents: KeyFileContents): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, serialise(contents), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

function serialise(contents: KeyFileContents): string {
  return JSON.stringify(contents, null, 2) + "\n";
}

function isMissingFile(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

const cache: { signature?: string; keyring?: Keyring } = {};

/**
 * The process's keyring. Re-read when the variables or the key file change, so a
 * running dashboard picks up a key file rotated by `npm run cli -- secrets:rotate`.
 */
export function getKeyring(config: Config = getConfig()): Keyring {
  const signature = keyringSignature(config);
  if (cache.keyring && cache.signature === signature) return cache.keyring;
  const keyring = loadKeyring(config);
  cache.keyring = keyring;
  cache.signature = keyringSignature(config);
  return keyring;
}

function keyringSignature(config: Config): string {
  if (config.APP_SECRET_KEY)
    return `env:${keyIdForMaterial(Buffer.from(config.APP_SECRET_KEY))}:${keyIdForMaterial(Buffer.from(config.APP_SECRET_KEY_PREVIOUS.join(",")))}`;
  const file = keyFilePathOf(config);
  try {
    const stat = statSync(file);
    return `file:${file}:${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return `file:${file}:missing`;
  }
}

export function findKey(keyring: Keyring, id: string): SecretKey | undefined {
  return [keyring.current, ...keyring.previous].find((key) => key.id === id);
}
