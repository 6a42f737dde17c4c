import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { hashPassword } from "@/lib/auth/passwords";
import { systemActorAs } from "@/lib/auth/permissions";
import { acceptInvite } from "./accept-invite";
import { createUser } from "./create-user";
import { issuePasswordReset, resetPassword } from "./password-reset";

// The real hash, counted: anyone may post to the invite and reset pages, so a link that cannot be used must cost no hash.
vi.mock("@/lib/auth/passwords", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/auth/passwords")>();
  return { ...actual, hashPassword: vi.fn(actual.hashPassword) };
});

const { db } = await useTestDatabase();
const admin = systemActorAs("admin@example.test");
const tokenOf = (path: string) => path.split("/").at(-1)!;
const hashes = vi.mocked(hashPassword);

describe("a link that cannot be used costs no password hash", () => {
  it("accepting an invite: a made-up or spent link is refused before hashing; a usable one hashes once", async () => {
    hashes.mockClear();
    await expect(acceptInvite({ db }, { token: "made-up-token", password: "a long enough password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(hashes).not.toHaveBeenCalled();

    const created = await createUser({ db, actor: admin }, { email: "invitee@example.test", name: "", role: "engineer" });
    const token = tokenOf(created.invite!.path);
    await acceptInvite({ db }, { token, password: "a long enough password", clientAddress: "x" });
    expect(hashes).toHaveBeenCalledTimes(1);
    await expect(acceptInvite({ db }, { token, password: "a long enough password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(hashes).toHaveBeenCalledTimes(1);
  });

  it("resetting a password: a made-up or spent link is refused before hashing; a usable one hashes once", async () => {
    const person = await createUser(
      { db, actor: admin },
      { email: "resets@example.test", name: "", role: "engineer", password: "the first long password" },
    );
    hashes.mockClear();
    await expect(resetPassword({ db }, { token: "made-up-token", password: "a long enough password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(hashes).not.toHaveBeenCalled();

    const link = await issuePasswordReset({ db, actor: { ...admin, role: "admin" } }, { userId: person.id });
    await resetPassword({ db }, { token: tokenOf(link.path), password: "a long enough password", clientAddress: "x" });
    expect(hashes).toHaveBeenCalledTimes(1);
    await expect(resetPassword({ db }, { token: tokenOf(link.path), password: "another password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(hashes).toHaveBeenCalledTimes(1);
  });
});
