import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { locationMembers, locations, userInvites, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { hashPassword } from "@/lib/auth/passwords";
import { systemActorAs } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { acceptInvite, findUsableInvite } from "@/lib/users/accept-invite";
import { INVITE_TTL_HOURS } from "@/lib/users/invite-links";
import { inviteLocationOwner } from "./invite-location-owner";

const { db } = await useTestDatabase();
const actor = systemActorAs("support@example.test", "203.0.113.9");
const tokenOf = (path: string) => path.split("/").at(-1)!;

async function addLocation() {
  const [row] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}` })
    .returning();
  return row!;
}

async function isMember(locationId: string, email: string) {
  const rows = await db
    .select()
    .from(locationMembers)
    .innerJoin(users, eq(users.id, locationMembers.userId))
    .where(and(eq(locationMembers.locationId, locationId), eq(users.email, email)));
  return rows.length === 1;
}

describe("owner invitation", () => {
  it("creates an owner whose one-time link sets a password and makes them a member of the location", async () => {
    const location = await addLocation();
    const invitation = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "New.Owner@Example.test", name: "New Owner" });
    if (invitation.kind !== "invite") throw new Error("expected a link");
    expect(invitation.email).toBe("new.owner@example.test");
    expect(await isMember(location.id, invitation.email)).toBe(false);

    const accepted = await acceptInvite(
      { db },
      { token: tokenOf(invitation.path), password: "a-long-enough-password", clientAddress: "203.0.113.10" },
    );
    expect(accepted.locationId).toBe(location.id);
    expect(await isMember(location.id, invitation.email)).toBe(true);
    const [owner] = await db.select().from(users).where(eq(users.email, invitation.email));
    expect(owner).toMatchObject({ role: "owner", name: "New Owner" });
  });

  it("a link works once", async () => {
    const location = await addLocation();
    const invitation = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "once@example.test", name: "" });
    if (invitation.kind !== "invite") throw new Error("expected a link");
    const token = tokenOf(invitation.path);
    await acceptInvite({ db }, { token, password: "a-long-enough-password", clientAddress: "203.0.113.10" });
    await expect(acceptInvite({ db }, { token, password: "another-long-password", clientAddress: "203.0.113.10" })).rejects.toThrow(
      /not valid any more/,
    );
  });

  it("a link expires", async () => {
    const location = await addLocation();
    const invitation = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "late@example.test", name: "" });
    if (invitation.kind !== "invite") throw new Error("expected a link");
    const afterExpiry = new Date(Date.now() + (INVITE_TTL_HOURS * 3600 + 60) * 1000);
    expect(await findUsableInvite({ db, now: afterExpiry }, { token: tokenOf(invitation.path) })).toBeNull();
    await expect(
      acceptInvite({ db, now: afterExpiry }, { token: tokenOf(invitation.path), password: "a-long-enough-password", clientAddress: "x" }),
    ).rejects.toThrow(/not valid any more/);
    expect(await isMember(location.id, invitation.email)).toBe(false);
  });

  it("inviting again replaces the earlier link", async () => {
    const location = await addLocation();
    const first = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "twice@example.test", name: "" });
    const second = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "twice@example.test", name: "" });
    if (first.kind !== "invite" || second.kind !== "invite") throw new Error("expected links");
    expect(await findUsableInvite({ db }, { token: tokenOf(first.path) })).toBeNull();
    expect(await findUsableInvite({ db }, { token: tokenOf(second.path) })).not.toBeNull();
  });

  it("an owner who has a password becomes a member at once, without a link", async () => {
    const location = await addLocation();
    await db.insert(users).values({ email: "existing@example.test", role: "owner", passwordHash: await hashPassword("an-existing-password") });
    expect(await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "existing@example.test", name: "" })).toEqual({
      kind: "member_added",
      email: "existing@example.test",
    });
    expect(await isMember(location.id, "existing@example.test")).toBe(true);
  });

  it("30 simultaneous invitations of one email: no failure but a conflict, one account, exactly one working link", async () => {
    const location = await addLocation();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => inviteLocationOwner({ db, actor }, { locationId: location.id, email: "rush@example.test", name: "" })),
    );
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "CONFLICT" });
    }
    const links = results.flatMap((result) => (result.status === "fulfilled" && result.value.kind === "invite" ? [result.value.path] : []));
    expect(links.length).toBeGreaterThan(0);
    const usable = (await Promise.all(links.map((path) => findUsableInvite({ db }, { token: tokenOf(path) })))).filter(Boolean);
    expect(usable).toHaveLength(1);
    const owners = await db.select().from(users).where(eq(users.email, "rush@example.test"));
    expect(owners).toHaveLength(1);
    expect(await db.select().from(userInvites).where(eq(userInvites.userId, owners[0]!.id))).toHaveLength(1);
  });

  it("an invitation racing the acceptance of the owner's link never leaves a working link beside the password just set", async () => {
    const first = await addLocation();
    const second = await addLocation();
    const invitation = await inviteLocationOwner({ db, actor }, { locationId: first.id, email: "racing@example.test", name: "" });
    if (invitation.kind !== "invite") throw new Error("expected a link");
    const [accepted, again] = await Promise.allSettled([
      acceptInvite({ db }, { token: tokenOf(invitation.path), password: "a-long-enough-password", clientAddress: "x" }),
      inviteLocationOwner({ db, actor }, { locationId: second.id, email: "racing@example.test", name: "" }),
    ]);
    expect(again.status).toBe("fulfilled");
    const [owner] = await db.select().from(users).where(eq(users.email, "racing@example.test"));
    const unused = (await db.select().from(userInvites).where(eq(userInvites.userId, owner!.id))).filter((invite) => invite.usedAt === null);
    if (accepted.status === "fulfilled") {
      // The acceptance came first: the invitation saw the password and added the membership.
      expect(again.status === "fulfilled" && again.value.kind).toBe("member_added");
      expect(unused).toHaveLength(0);
    } else {
      // The invitation came first: it replaced the link being accepted, and no password was set.
      expect(accepted.reason).toMatchObject({ code: "NOT_FOUND" });
      expect(owner!.passwordHash).toBeNull();
      expect(unused).toHaveLength(1);
    }
  });

  it("refuses a staff email, naming the field", async () => {
    const location = await addLocation();
    await db.insert(users).values({ email: "staff@example.test", role: "support" });
    const error = await inviteLocationOwner({ db, actor }, { locationId: location.id, email: "staff@example.test", name: "" }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).fields).toEqual([{ field: "email", reason: "belongs to a staff account" }]);
  });
});
