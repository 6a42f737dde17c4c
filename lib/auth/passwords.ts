import { hash, verify } from "@node-rs/argon2";

export { NewPassword } from "./password-rules";

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
// algorithm 2 = Argon2id (the package exports it as a const enum, which isolatedModules cannot read).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// Verifying against this when the account is unknown keeps the timing the same.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword("not-a-real-password-for-timing");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
