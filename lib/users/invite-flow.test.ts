import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locationMembers, locations, userInvites, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { systemActorAs } from "@/lib/auth/permissions";
import { signInWithPassword } from "@/lib/auth/sign-in-with-password";
import { DomainError } from "@/lib/errors/domain-error";
import { acceptInvite, findUsableInvite } from "./accept-invite";
import { createUser } from "./create-user";
import { issueInvite } from "./invite-links";
import { findUsablePasswordReset, issuePasswordReset } from "./password-reset";
import { reissueInvite } from "./reissue-invite";
import { updateUser } from "./update-user";

const testDb = await useTestDatabase();
const admin = systemActorAs("admin@example.test");
const tokenOf = (path: string) => path.split("/").at(-1)!;

describe("invite flow", () => {
  it("creates a user without a password whose one-time link sets it, then refuses the link again", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "New.Person@Example.test", name: "New", role: "engineer" });
    expect(created.email).toBe("new.person@example.test");
    const token = tokenOf(created.invite!.path);
    expect(await findUsableInvite({ db: testDb.db }, { token })).toMatchObject({ email: "new.person@example.test" });
    // Only a hash of the token is stored.
    const stored = await testDb.db.select().from(userInvites).where(eq(userInvites.userId, created.id));
    expect(JSON.stringify(stored)).not.toContain(token);

    await acceptInvite({ db: testDb.db }, { token, password: "a long enough password", clientAddress: "10.0.0.1" });
    expect(
      (
        await signInWithPassword(
          { db: testDb.db },
          { email: "new.person@example.test", password: "a long enough password", clientAddress: "10.0.0.1" },
        )
      ).ok,
    ).toBe(true);

    await expect(acceptInvite({ db: testDb.db }, { token, password: "another long password", clientAddress: "10.0.0.1" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await findUsableInvite({ db: testDb.db }, { token })).toBeNull();
    const actions = (await testDb.db.select().from(auditLog)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["user.created", "user.invited", "user.invite_accepted"]));
  });

  it("refuses an expired link", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "late@example.test", name: "", role: "support" });
    const token = tokenOf(created.invite!.path);
    const fourDaysLater = new Date(Date.now() + 4 * 24 * 60 * 60 * 1000);
    await expect(
      acceptInvite({ db: testDb.db, now: fourDaysLater }, { token, password: "a long enough password", clientAddress: "x" }),
    ).rejects.toBeInstanceOf(DomainError);
    expect(await findUsableInvite({ db: testDb.db, now: fourDaysLater }, { token })).toBeNull();
  });

  it("a reissued link replaces the earlier one", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "again@example.test", name: "", role: "support" });
    const second = await reissueInvite({ db: testDb.db, actor: admin }, { userId: created.id });
    await expect(
      acceptInvite({ db: testDb.db }, { token: tokenOf(created.invite!.path), password: "a long enough password", clientAddress: "x" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await acceptInvite({ db: testDb.db }, { token: tokenOf(second.path), password: "a long enough password", clientAddress: "x" });
  });

  it("spends a link once even when it is submitted twice at the same moment", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "race@example.test", name: "", role: "support" });
    const token = tokenOf(created.invite!.path);
    const results = await Promise.allSettled([
      acceptInvite({ db: testDb.db }, { token, password: "first long password", clientAddress: "x" }),
      acceptInvite({ db: testDb.db }, { token, password: "second long password", clientAddress: "x" }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
  });

  it("refuses a duplicate email with a field error", async () => {
    await createUser({ db: testDb.db, actor: admin }, { email: "dup@example.test", name: "", role: "support" });
    await expect(createUser({ db: testDb.db, actor: admin }, { email: "DUP@example.test", name: "", role: "owner" })).rejects.toMatchObject({
      code: "CONFLICT",
      fields: [{ field: "email", reason: "is already taken" }],
    });
  });
});

describe("races and passwords", () => {
  it("of 10 simultaneous creations of one user, one succeeds and the others conflict, leaving nothing of theirs", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        createUser({ db: testDb.db, actor: admin }, { email: "same@example.test", name: `Try ${index}`, role: "support" }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected")
        expect(result.reason).toMatchObject({ code: "CONFLICT", fields: [{ field: "email", reason: "is already taken" }] });
    }
    const [user] = await testDb.db.select().from(users).where(eq(users.email, "same@example.test"));
    expect(await testDb.db.select().from(userInvites).where(eq(userInvites.userId, user!.id))).toHaveLength(1);
    const created = await testDb.db.select().from(auditLog).where(eq(auditLog.targetLabel, "same@example.test"));
    expect(created.map((entry) => entry.action).sort()).toEqual(["user.created", "user.invited"]);
  });

  it("of 20 links issued at the same moment, exactly one works", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "many-links@example.test", name: "", role: "support" });
    const links = await Promise.all(Array.from({ length: 20 }, () => reissueInvite({ db: testDb.db, actor: admin }, { userId: created.id })));
    const usable = await Promise.all([created.invite!, ...links].map((link) => findUsableInvite({ db: testDb.db }, { token: tokenOf(link.path) })));
    expect(usable.filter(Boolean)).toHaveLength(1);
    expect(await testDb.db.select().from(userInvites).where(eq(userInvites.userId, created.id))).toHaveLength(1);
  });

  it("a link left over for an account that has a password only adds the membership; the password stays", async () => {
    const created = await createUser(
      { db: testDb.db, actor: admin },
      {
        email: "has-password@example.test",
        name: "",
        role: "owner",
        password: "the original password",
      },
    );
    const [location] = await testDb.db.insert(locations).values({ name: "Salon" }).returning();
    const { token } = await issueInvite(testDb.db, { userId: created.id, createdBy: null, locationId: location!.id });
    expect(await findUsableInvite({ db: testDb.db }, { token })).toMatchObject({ hasPassword: true });

    const accepted = await acceptInvite({ db: testDb.db }, { token, password: "an attacker's password", clientAddress: "x" });
    expect(accepted).toMatchObject({ passwordSet: false, locationId: location!.id });
    const signIn = (password: string) =>
      signInWithPassword({ db: testDb.db }, { email: "has-password@example.test", password, clientAddress: "10.7.7.7" });
    expect((await signIn("an attacker's password")).ok).toBe(false);
    expect((await signIn("the original password")).ok).toBe(true);
    expect(await testDb.db.select().from(locationMembers).where(eq(locationMembers.userId, created.id))).toHaveLength(1);
    await expect(acceptInvite({ db: testDb.db }, { token, password: "an attacker's password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("gives no new link to a user who has set a password", async () => {
    const created = await createUser(
      { db: testDb.db, actor: admin },
      {
        email: "set-already@example.test",
        name: "",
        role: "support",
        password: "a long enough password",
      },
    );
    await expect(reissueInvite({ db: testDb.db, actor: admin }, { userId: created.id })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("a new plain link keeps the location the earlier one was for", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "kept-location@example.test", name: "", role: "owner" });
    const [location] = await testDb.db.insert(locations).values({ name: "Salon kept" }).returning();
    await issueInvite(testDb.db, { userId: created.id, createdBy: null, locationId: location!.id });
    const plain = await reissueInvite({ db: testDb.db, actor: admin }, { userId: created.id });
    expect(
      await acceptInvite({ db: testDb.db }, { token: tokenOf(plain.path), password: "a long enough password", clientAddress: "x" }),
    ).toMatchObject({
      locationId: location!.id,
      passwordSet: true,
    });
  });
});

describe("updateUser", () => {
  it("deactivation bumps the session epoch, so tokens issued before stop working", async () => {
    const created = await createUser(
      { db: testDb.db, actor: admin },
      {
        email: "leaver@example.test",
        name: "",
        role: "support",
        password: "a long enough password",
      },
    );
    await updateUser({ db: testDb.db, actor: admin }, { userId: created.id, active: false });
    const [user] = await testDb.db.select().from(users).where(eq(users.id, created.id));
    expect(user).toMatchObject({ active: false, sessionEpoch: 1 });
  });

  it("deactivation revokes an unused invitation link and reset link: reactivating does not bring them back", async () => {
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "returner@example.test", name: "", role: "support" });
    const invite = await issueInvite(testDb.db, { userId: created.id, createdBy: admin.id });
    expect(await findUsableInvite({ db: testDb.db }, { token: invite.token })).not.toBeNull();
    await updateUser({ db: testDb.db, actor: admin }, { userId: created.id, active: false });
    await updateUser({ db: testDb.db, actor: admin }, { userId: created.id, active: true });
    expect(await findUsableInvite({ db: testDb.db }, { token: invite.token })).toBeNull();

    const withPassword = await createUser(
      { db: testDb.db, actor: admin },
      { email: "returner2@example.test", name: "", role: "support", password: "a long enough password" },
    );
    const reset = await issuePasswordReset({ db: testDb.db, actor: admin }, { userId: withPassword.id });
    const token = tokenOf(reset.path);
    expect(await findUsablePasswordReset({ db: testDb.db }, { token })).not.toBeNull();
    await updateUser({ db: testDb.db, actor: admin }, { userId: withPassword.id, active: false });
    await updateUser({ db: testDb.db, actor: admin }, { userId: withPassword.id, active: true });
    expect(await findUsablePasswordReset({ db: testDb.db }, { token })).toBeNull();
  });

  it("changes a role and audits from → to", async () => {
    const created = await createUser(
      { db: testDb.db, actor: admin },
      {
        email: "mover@example.test",
        name: "",
        role: "support",
        password: "a long enough password",
      },
    );
    await updateUser({ db: testDb.db, actor: admin }, { userId: created.id, role: "engineer" });
    const [entry] = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "user.role_changed"));
    expect(entry).toMatchObject({ targetId: created.id, details: { from: "support", to: "engineer" } });
  });

  it("keeps at least one active admin", async () => {
    const only = await createUser(
      { db: testDb.db, actor: admin },
      {
        email: "only-admin@example.test",
        name: "",
        role: "admin",
        password: "a long enough password",
      },
    );
    await expect(updateUser({ db: testDb.db, actor: admin }, { userId: only.id, role: "support" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(updateUser({ db: testDb.db, actor: admin }, { userId: only.id, active: false })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses an admin's change of their own role or access, which the users page does not offer; another admin may", async () => {
    const first = await createUser(
      { db: testDb.db, actor: admin },
      { email: "self@example.test", name: "", role: "admin", password: "a long enough password" },
    );
    await createUser({ db: testDb.db, actor: admin }, { email: "other@example.test", name: "", role: "admin", password: "a long enough password" });
    const self = { id: first.id, role: "admin", email: "self@example.test" } as const;
    for (const change of [{ role: "support" }, { active: false }] as const)
      await expect(updateUser({ db: testDb.db, actor: self }, { userId: first.id, ...change })).rejects.toMatchObject({
        code: "CONFLICT",
        message: "You cannot change your own role or deactivate yourself: another admin can.",
      });
    // Saying what is already so changes nothing and is not refused.
    await updateUser({ db: testDb.db, actor: self }, { userId: first.id, role: "admin", active: true });
    await updateUser({ db: testDb.db, actor: admin }, { userId: first.id, role: "support" });
    const [after] = await testDb.db.select().from(users).where(eq(users.id, first.id));
    expect(after).toMatchObject({ role: "support", active: true });
  });
});

describe("listUsers", () => {
  it("shows a pending invite until it is used", async () => {
    const { listUsers } = await import("./list-users");
    const created = await createUser({ db: testDb.db, actor: admin }, { email: "pending@example.test", name: "", role: "support" });
    const before = (await listUsers({ db: testDb.db, actor: admin })).find((user) => user.id === created.id);
    expect(before).toMatchObject({ hasPassword: false });
    expect(before?.pendingInviteExpiresAt).toBeInstanceOf(Date);
    await acceptInvite({ db: testDb.db }, { token: tokenOf(created.invite!.path), password: "a long enough password", clientAddress: "x" });
    const after = (await listUsers({ db: testDb.db, actor: admin })).find((user) => user.id === created.id);
    expect(after).toMatchObject({ hasPassword: true, pendingInviteExpiresAt: null });
  });
});
