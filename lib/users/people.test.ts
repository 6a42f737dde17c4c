import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locationMembers, passwordResetLinks, userInvites, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { oidcProviderOf } from "@/lib/auth/oidc-provider";
import { roleFromClaims } from "@/lib/auth/oidc-role";
import type { OperationActor, UserActor } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { signInWithOidc } from "@/lib/auth/sign-in-with-oidc";
import { signInWithPassword } from "@/lib/auth/sign-in-with-password";
import { acceptInvite } from "./accept-invite";
import { changeOwnPassword } from "./change-own-password";
import { createUser } from "./create-user";
import { createLocation } from "@/lib/locations/create-location";
import { inviteLocationOwner } from "@/lib/locations/invite-location-owner";
import { LocationInput } from "@/lib/locations/location-inputs";
import { SINGLE_SIGN_ON_NO_PASSWORD } from "./invite-links";
import { listUsers } from "./list-users";
import { issuePasswordReset, resetPassword } from "./password-reset";
import { reissueInvite } from "./reissue-invite";
import { updateUser } from "./update-user";

const { db } = await useTestDatabase();
let sequence = 0;

async function account(role: Role, password = "the first long password"): Promise<OperationActor & UserActor & { email: string }> {
  sequence += 1;
  const email = `${role}${sequence}@example.test`;
  const created = await createUser({ db, actor: { system: true, id: null, email: "setup" } }, { email, name: "", role, password });
  return { id: created.id, role, email };
}

const signIn = (email: string, password: string) => signInWithPassword({ db }, { email, password, clientAddress: `10.1.0.${++sequence}` });
const epochOf = async (id: string) => (await db.select({ epoch: users.sessionEpoch }).from(users).where(eq(users.id, id)))[0]!.epoch;
const tokenOf = (path: string) => path.split("/").at(-1)!;

describe("changing one's own password (an owner)", () => {
  it("needs the current password; then only the new one works and every session of the account ends", async () => {
    const owner = await account("owner");
    await expect(
      changeOwnPassword({ db, actor: owner }, { currentPassword: "not it at all", password: "a brand new password" }),
    ).rejects.toMatchObject({
      code: "INVALID",
      fields: [{ field: "currentPassword" }],
    });
    const before = await epochOf(owner.id);
    await changeOwnPassword({ db, actor: owner }, { currentPassword: "the first long password", password: "a brand new password" });
    expect(await epochOf(owner.id)).toBe(before + 1);
    expect((await signIn(owner.email, "the first long password")).ok).toBe(false);
    expect((await signIn(owner.email, "a brand new password")).ok).toBe(true);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "user.password_changed"));
    expect(entry).toMatchObject({ actorEmail: owner.email, targetId: owner.id });
  });

  it("two changes sent at once with the same current password: one wins, the other is told its current password is not right", async () => {
    const owner = await account("owner");
    const outcomes = await Promise.allSettled(
      ["the second long password", "the third long password"].map((password) =>
        changeOwnPassword({ db, actor: owner }, { currentPassword: "the first long password", password }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({
      reason: { code: "INVALID", fields: [{ field: "currentPassword" }] },
    });
    const winner = outcomes[0]!.status === "fulfilled" ? "the second long password" : "the third long password";
    expect((await signIn(owner.email, winner)).ok).toBe(true);
  });

  it("a change that proved the password a reset link has just replaced is refused: the reset's password stays", async () => {
    const admin = await account("admin");
    const engineer = await account("engineer");
    const link = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    const outcomes = await Promise.allSettled([
      changeOwnPassword({ db, actor: engineer }, { currentPassword: "the first long password", password: "changed long password" }),
      resetPassword({ db }, { token: tokenOf(link.path), password: "reset long password", clientAddress: "x" }),
    ]);
    expect(outcomes[1]).toMatchObject({ status: "fulfilled" });
    const changed = outcomes[0]!.status === "fulfilled";
    // Either the change came first (and the reset replaced it) or it is refused: never the reset undone.
    expect((await signIn(engineer.email, "reset long password")).ok).toBe(true);
    if (!changed) expect(outcomes[0]).toMatchObject({ reason: { code: "INVALID" } });
  });
});

describe("password reset links (an admin sends, the person uses)", () => {
  it("a link used while the admin sends a new one waits for it (the account's lock first, as sending takes it): no deadlock", async () => {
    const admin = await account("admin");
    const engineer = await account("engineer");
    const link = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    let used: Promise<unknown> | undefined;
    // Sending a new link, held open: it locks the account, then replaces the unused link.
    const sending = db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, engineer.id)).for("update");
      used = resetPassword({ db }, { token: tokenOf(link.path), password: "reset long password", clientAddress: "x" });
      used.catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.update(passwordResetLinks).set({ tokenHash: "replaced" }).where(eq(passwordResetLinks.userId, engineer.id));
    });
    await expect(sending).resolves.toBeUndefined();
    await expect(used).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a one-time, hashed, expiring link sets the password and ends the account's sessions; support may not send one", async () => {
    const admin = await account("admin");
    const support = await account("support");
    const engineer = await account("engineer");
    await expect(issuePasswordReset({ db, actor: support }, { userId: engineer.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const first = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    const second = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    const stored = await db.select().from(passwordResetLinks).where(eq(passwordResetLinks.userId, engineer.id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(second.path));
    // The newer link replaced the first.
    await expect(resetPassword({ db }, { token: tokenOf(first.path), password: "reset long password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const tooLate = new Date(second.expiresAt.getTime() + 1000);
    await expect(
      resetPassword({ db, now: tooLate }, { token: tokenOf(second.path), password: "reset long password", clientAddress: "x" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    const before = await epochOf(engineer.id);
    await resetPassword({ db }, { token: tokenOf(second.path), password: "reset long password", clientAddress: "x" });
    expect(await epochOf(engineer.id)).toBe(before + 1);
    expect((await signIn(engineer.email, "reset long password")).ok).toBe(true);
    await expect(resetPassword({ db }, { token: tokenOf(second.path), password: "another long password", clientAddress: "x" })).rejects.toMatchObject(
      {
        code: "NOT_FOUND",
      },
    );
  });
  it("one link sent twice at once sets one password: the other is told the link was used", async () => {
    const admin = await account("admin");
    const engineer = await account("engineer");
    const link = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    const before = await epochOf(engineer.id);
    const passwords = ["first racing password", "second racing password"];
    const outcomes = await Promise.allSettled(
      passwords.map((password) => resetPassword({ db }, { token: tokenOf(link.path), password, clientAddress: "x" })),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "NOT_FOUND" } });
    const winner = passwords[outcomes.findIndex((outcome) => outcome.status === "fulfilled")]!;
    expect((await signIn(engineer.email, winner)).ok).toBe(true);
    expect(await epochOf(engineer.id)).toBe(before + 1);
  });
});

describe("single sign-on", () => {
  const settings = { OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: ["sync-admins=admin", "sync-support=support"] };

  it("maps the first matching claim value to a role, from a list or a string; nothing matching gives none", () => {
    expect(roleFromClaims({ groups: ["staff", "sync-support", "sync-admins"] }, settings)).toBe("admin");
    expect(roleFromClaims({ groups: "sync-support" }, settings)).toBe("support");
    expect(roleFromClaims({ groups: ["staff"] }, settings)).toBeNull();
    expect(roleFromClaims({ roles: ["sync-admins"] }, settings)).toBeNull();
    expect(roleFromClaims({}, { ...settings, OIDC_ROLE_MAP: [] })).toBeNull();
  });

  it("offers the provider only when issuer, client id and secret are all set", () => {
    expect(oidcProviderOf({ OIDC_ISSUER: "https://id.example.test", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: undefined })).toBeNull();
    expect(oidcProviderOf({ OIDC_ISSUER: "https://id.example.test/", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s" })).toMatchObject({
      id: "oidc",
      wellKnown: "https://id.example.test/.well-known/openid-configuration",
      checks: ["pkce", "state"],
    });
  });

  const identity = (overrides: Partial<Parameters<typeof signInWithOidc>[1]> = {}) => {
    sequence += 1;
    return {
      subject: `sub-${sequence}`,
      email: `sso${sequence}@example.test`,
      emailVerified: true,
      name: "Sam",
      role: null,
      clientAddress: null,
      ...overrides,
    };
  };

  it("a new account with a mapped role signs in at once; the next sign-in finds it by subject", async () => {
    const person = identity({ role: "support" });
    const first = await signInWithOidc({ db }, person);
    expect(first).toMatchObject({ ok: true, user: { email: person.email } });
    const again = await signInWithOidc({ db }, { ...person, email: "changed@example.test", role: "admin" });
    expect(again).toMatchObject({ ok: true, user: { id: first.ok ? first.user.id : "" } });
    const [row] = await db.select().from(users).where(eq(users.oidcSubject, person.subject));
    expect(row).toMatchObject({ role: "support", passwordHash: null });
  });

  it("two first sign-ins of one new person at once (two tabs) make one account and both get in", async () => {
    const person = identity({ role: "support" });
    const results = await Promise.all(Array.from({ length: 8 }, () => signInWithOidc({ db }, person)));
    const accounts = await db.select().from(users).where(eq(users.oidcSubject, person.subject));
    expect(accounts).toHaveLength(1);
    for (const result of results) expect(result).toMatchObject({ ok: true, user: { id: accounts[0]!.id } });
  });

  it("a provider's name holding NUL or direction characters, or an email that is none, is stored safely or refused, never thrown", async () => {
    const nul = identity({ name: "Sam\u0000\u202e nimdA", role: "support" });
    expect(await signInWithOidc({ db }, nul)).toMatchObject({ ok: true });
    const [row] = await db.select().from(users).where(eq(users.oidcSubject, nul.subject));
    expect(row!.name).not.toMatch(/[\u0000\u202e]/);
    expect(await signInWithOidc({ db }, identity({ email: "not an email", role: "support" }))).toEqual({ ok: false, reason: "unverified_email" });
    // Claims are JSON: a provider may send a name that is no string at all.
    expect(await signInWithOidc({ db }, identity({ name: { given: "Sam" } as unknown as string, role: "support" }))).toMatchObject({ ok: true });
  });

  it("an unknown account without a mapped role gets no access until an admin assigns one", async () => {
    const admin = await account("admin");
    const person = identity();
    expect(await signInWithOidc({ db }, person)).toEqual({ ok: false, reason: "awaiting_role" });
    expect(await signInWithOidc({ db }, person)).toEqual({ ok: false, reason: "awaiting_role" });
    const [row] = await db.select().from(users).where(eq(users.oidcSubject, person.subject));
    expect(row).toMatchObject({ active: false, rolePending: true });
    await expect(updateUser({ db, actor: admin }, { userId: row!.id, active: true })).rejects.toMatchObject({ code: "CONFLICT" });

    await updateUser({ db, actor: admin }, { userId: row!.id, role: "engineer" });
    expect(await signInWithOidc({ db }, person)).toMatchObject({ ok: true, user: { id: row!.id } });
    const [assigned] = await db.select().from(users).where(eq(users.id, row!.id));
    expect(assigned).toMatchObject({ role: "engineer", active: true, rolePending: false });
  });

  it("links an existing account by a verified email only, keeping its role; a deactivated one stays out", async () => {
    const owner = await account("owner");
    expect(await signInWithOidc({ db }, identity({ email: owner.email, emailVerified: false, role: "admin" }))).toEqual({
      ok: false,
      reason: "unverified_email",
    });
    const linked = await signInWithOidc({ db }, identity({ email: owner.email.toUpperCase(), role: "admin" }));
    expect(linked).toMatchObject({ ok: true, user: { id: owner.id } });
    const [row] = await db.select().from(users).where(eq(users.id, owner.id));
    expect(row!.role).toBe("owner");

    const admin = await account("admin");
    const leaver = await account("support");
    const leaverIdentity = identity({ email: leaver.email });
    await signInWithOidc({ db }, leaverIdentity);
    await updateUser({ db, actor: admin }, { userId: leaver.id, active: false });
    expect(await signInWithOidc({ db }, leaverIdentity)).toEqual({ ok: false, reason: "deactivated" });
  });

  it("linking a password account to single sign-on ends its password: sign-in, its reset link and its own change all refused", async () => {
    const admin = await account("admin");
    const engineer = await account("engineer");
    const reset = await issuePasswordReset({ db, actor: admin }, { userId: engineer.id });
    const before = await epochOf(engineer.id);
    // The sessions the password signed in end; the single sign-on one carries the new epoch.
    expect(await signInWithOidc({ db }, identity({ email: engineer.email }))).toMatchObject({
      ok: true,
      user: { id: engineer.id, sessionEpoch: before + 1 },
    });

    const [row] = await db.select().from(users).where(eq(users.id, engineer.id));
    expect(row!.passwordHash).toBeNull();
    // Refused like a wrong password: the person removed from the provider cannot come back through the old one.
    expect(await signIn(engineer.email, "the first long password")).toEqual({ ok: false, reason: "invalid" });
    expect(await db.select().from(passwordResetLinks).where(eq(passwordResetLinks.userId, engineer.id))).toHaveLength(0);
    await expect(resetPassword({ db }, { token: tokenOf(reset.path), password: "reset long password", clientAddress: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      changeOwnPassword({ db, actor: engineer }, { currentPassword: "the first long password", password: "a brand new password" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(issuePasswordReset({ db, actor: admin }, { userId: engineer.id })).rejects.toMatchObject({ message: SINGLE_SIGN_ON_NO_PASSWORD });
    await expect(reissueInvite({ db, actor: admin }, { userId: engineer.id })).rejects.toMatchObject({ message: SINGLE_SIGN_ON_NO_PASSWORD });
    expect((await db.select().from(users).where(eq(users.id, engineer.id)))[0]!.passwordHash).toBeNull();
  });

  it("linking an invited owner spends the invite link: its location becomes a membership at once", async () => {
    const support = await account("support");
    const salon = await createLocation(
      { db, actor: support },
      LocationInput.parse({
        name: `Linked Salon ${++sequence}`,
        timeZone: "UTC",
        country: "DE",
        environment: "staging",
        upstreamLocationId: `linked-${sequence}`,
        sourceKey: "s",
        syncTime: "09:00",
      }),
    );
    const email = `invited${sequence}@example.test`;
    const invitation = await inviteLocationOwner({ db, actor: support }, { locationId: salon.id, email, name: "" });
    expect(invitation.kind).toBe("invite");
    const linked = await signInWithOidc({ db }, identity({ email }));
    const userId = linked.ok ? linked.user.id : "";
    expect(
      await db
        .select()
        .from(userInvites)
        .where(and(eq(userInvites.userId, userId), isNull(userInvites.usedAt))),
    ).toHaveLength(0);
    expect(await db.select().from(locationMembers).where(eq(locationMembers.userId, userId))).toEqual([
      expect.objectContaining({ locationId: salon.id }),
    ]);
    const token = invitation.kind === "invite" ? tokenOf(invitation.path) : "";
    await expect(acceptInvite({ db }, { token, password: "invite long password", clientAddress: "x" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("no link gives a single sign-on account a password: reset and invite links are refused, an owner invitation adds the membership", async () => {
    const admin = await account("admin");
    const support = await account("support");
    const person = identity({ role: "owner" });
    const signedIn = await signInWithOidc({ db }, person);
    const userId = signedIn.ok ? signedIn.user.id : "";
    await expect(issuePasswordReset({ db, actor: admin }, { userId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: SINGLE_SIGN_ON_NO_PASSWORD,
    });
    await expect(reissueInvite({ db, actor: admin }, { userId })).rejects.toMatchObject({ code: "CONFLICT", message: SINGLE_SIGN_ON_NO_PASSWORD });
    const salon = await createLocation(
      { db, actor: support },
      LocationInput.parse({
        name: `SSO Salon ${sequence}`,
        timeZone: "UTC",
        country: "DE",
        environment: "staging",
        upstreamLocationId: `sso-${sequence}`,
        sourceKey: "s",
        syncTime: "09:00",
      }),
    );
    expect(await inviteLocationOwner({ db, actor: support }, { locationId: salon.id, email: person.email, name: "" })).toEqual({
      kind: "member_added",
      email: person.email,
    });
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    expect(row!.passwordHash).toBeNull();
    expect((await listUsers({ db, actor: admin })).find((user) => user.id === userId)).toMatchObject({ singleSignOn: true, hasPassword: false });
  });

  it("an account awaiting a role gets the one a role map added later gives it, at its next sign-in", async () => {
    const person = identity();
    expect(await signInWithOidc({ db }, person)).toEqual({ ok: false, reason: "awaiting_role" });
    const later = await signInWithOidc({ db }, { ...person, role: "engineer" });
    expect(later).toMatchObject({ ok: true });
    const [row] = await db.select().from(users).where(eq(users.oidcSubject, person.subject));
    expect(row).toMatchObject({ role: "engineer", rolePending: false, active: true });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.role_changed"), eq(auditLog.targetId, row!.id)));
    expect(entry!.details).toMatchObject({ from: null, to: "engineer" });
    // A role the map gives later never changes one the account has.
    expect(await signInWithOidc({ db }, { ...person, role: "admin" })).toMatchObject({ ok: true });
    expect((await db.select().from(users).where(eq(users.id, row!.id)))[0]).toMatchObject({ role: "engineer" });
  });
});
