import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/config";
import { generateSecretKey, getKeyring, loadKeyring, type Keyring } from "./keyring";
import { keyIdOf, openSecret, sealSecret, secretHint, SecretBoxError } from "./secret-box";

const keyA = generateSecretKey();
const keyB = generateSecretKey();
const ringA = loadKeyring(parseConfig({ APP_SECRET_KEY: keyA }));
const ringB = loadKeyring(parseConfig({ APP_SECRET_KEY: keyB }));
const plaintext = "sk_live_the-api-key-0123456789";
const context = "environments.api_key:staging";

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("secret box", () => {
  it("seals to a v1 value under the current key id and opens it again", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(plaintext);
    expect(keyIdOf(sealed)).toBe(ringA.current.id);
    expect(openSecret(sealed, context, ringA)).toBe(plaintext);
  });

  it("uses a fresh IV each time, so equal secrets seal differently", () => {
    expect(sealSecret(plaintext, context, ringA)).not.toBe(sealSecret(plaintext, context, ringA));
  });

  it("refuses a value moved to another row or column (context mismatch)", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    const error = errorOf(() => openSecret(sealed, "environments.api_key:production", ringA));
    expect(error).toBeInstanceOf(SecretBoxError);
    expect(error.message).not.toContain(plaintext);
  });

  it("refuses a tampered ciphertext, tag or IV", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    const parts = sealed.split(".");
    for (const index of [2, 3, 4]) {
      const altered = [...parts];
      const bytes = Buffer.from(altered[index]!, "base64url");
      bytes[0] = bytes[0]! ^ 1;
      altered[index] = bytes.toString("base64url");
      expect(() => openSecret(altered.join("."), context, ringA)).toThrow(SecretBoxError);
    }
    expect(() => openSecret(sealed.slice(0, -3), context, ringA)).toThrow(SecretBoxError);
    expect(() => openSecret("plain text", context, ringA)).toThrow(/not a sealed secret/);
  });

  it("explains a value sealed under a key the keyring does not hold, without echoing keys or value", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    const error = errorOf(() => openSecret(sealed, context, ringB));
    expect(error.message).toContain(ringA.current.id);
    expect(error.message).toContain("APP_SECRET_KEY_PREVIOUS");
    for (const secret of [plaintext, keyA, keyB]) expect(error.message).not.toContain(secret);
  });

  it("fails closed when a different key claims the same key id", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    const impostor: Keyring = { ...ringB, current: { id: ringA.current.id, material: ringB.current.material } };
    expect(() => openSecret(sealed, context, impostor)).toThrow(/altered|different key/);
  });

  it("opens values sealed under a previous key", () => {
    const sealed = sealSecret(plaintext, context, ringA);
    const rotated = loadKeyring(parseConfig({ APP_SECRET_KEY: keyB, APP_SECRET_KEY_PREVIOUS: `${generateSecretKey()}, ${keyA}` }));
    expect(rotated.previous.map((key) => key.id)).toContain(ringA.current.id);
    expect(openSecret(sealed, context, rotated)).toBe(plaintext);
    expect(keyIdOf(sealSecret(plaintext, context, rotated))).toBe(ringB.current.id);
  });

  it("shows only the last four characters of long secrets, nothing of short ones", () => {
    expect(secretHint("abcdefghijkl1a2b")).toBe("set · ends in 1a2b");
    expect(secretHint("short-pw")).toBe("set");
  });
});

describe("keyring", () => {
  it("rejects an APP_SECRET_KEY that is not 32 bytes of base64, naming the variable but not the value", () => {
    const bad = "not-a-real-key-but-a-password";
    const error = errorOf(() => loadKeyring(parseConfig({ APP_SECRET_KEY: bad })));
    expect(error.message).toContain("APP_SECRET_KEY");
    expect(error.message).not.toContain(bad);
    expect(() => loadKeyring(parseConfig({ APP_SECRET_KEY: Buffer.alloc(16).toString("base64") }))).toThrow(/exactly 32/);
    expect(() => loadKeyring(parseConfig({ APP_SECRET_KEY: keyA, APP_SECRET_KEY_PREVIOUS: "nope" }))).toThrow(/APP_SECRET_KEY_PREVIOUS/);
  });

  it("refuses to run without APP_SECRET_KEY in production mode", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "keyring-"));
    expect(() => loadKeyring(parseConfig({ NODE_ENV: "production", DATABASE_URL: "postgres://db/app", DATA_DIR: dataDir }))).toThrow(
      /APP_SECRET_KEY is not set/,
    );
  });

  it("creates the embedded default's key file with mode 0600 and reuses it", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "keyring-"));
    const env = { DATA_DIR: dataDir };
    const first = loadKeyring(parseConfig(env));
    const file = path.join(dataDir, "secret-keys.json");
    expect(first.source).toBe("key-file");
    expect(first.keyFilePath).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ current: expect.any(String), previous: [] });
    expect(loadKeyring(parseConfig(env)).current.id).toBe(first.current.id);
    expect(getKeyring(parseConfig(env)).current.id).toBe(first.current.id);
  });
});
