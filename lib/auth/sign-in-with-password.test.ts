import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import { hashPassword } from "./passwords";
import { signInLimits, signInWithPassword } from "./sign-in-with-password";

const testDb = await useTestDatabase();

async function createAccount(email: string, password: string, active = true) {
  await testDb.db.insert(users).values({ email, role: "support", passwordHash: await hashPassword(password), active });
}

describe("signInWithPassword", () => {
  it("accepts the right password, case-insensitively on the email, and audits the sign-in", async () => {
    await createAccount("Right@Example.test", "correct horse battery");
    const result = await signInWithPassword(
      { db: testDb.db },
      { email: "right@example.TEST", password: "correct horse battery", clientAddress: "10.0.0.1" },
    );
    expect(result.ok).toBe(true);
    const entries = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in"));
    expect(entries.map((entry) => entry.actorEmail)).toContain("Right@Example.test");
  });

  it("refuses a wrong password and a deactivated account the same way, auditing each failure", async () => {
    await createAccount("gone@example.test", "correct horse battery", false);
    await createAccount("typo@example.test", "correct horse battery");
    expect(
      await signInWithPassword({ db: testDb.db }, { email: "gone@example.test", password: "correct horse battery", clientAddress: "10.0.0.2" }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword({ db: testDb.db }, { email: "typo@example.test", password: "wrong", clientAddress: "10.0.0.2" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    const failures = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(failures.map((entry) => entry.details)).toEqual(expect.arrayContaining([{ reason: "account deactivated" }, { reason: "wrong password" }]));
  });

  it("throttles an account after its failed attempts, even with the right password, from any address", async () => {
    await createAccount("target@example.test", "correct horse battery");
    for (let attempt = 0; attempt < signInLimits.perAccount.limit; attempt++) {
      const result = await signInWithPassword(
        { db: testDb.db },
        {
          email: "target@example.test",
          password: `guess-${attempt}`,
          clientAddress: `10.1.0.${attempt}`,
        },
      );
      expect(result).toEqual({ ok: false, reason: "invalid" });
    }
    const blocked = await signInWithPassword(
      { db: testDb.db },
      {
        email: "target@example.test",
        password: "correct horse battery",
        clientAddress: "10.9.9.9",
      },
    );
    expect(blocked).toMatchObject({ ok: false, reason: "throttled" });
    expect(blocked.ok === false && blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(await testDb.db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in_throttled"))).toHaveLength(1);
  });

  it("throttles an address that tries many accounts", async () => {
    for (let attempt = 0; attempt < signInLimits.perAddress.limit; attempt++) {
      await signInWithPassword({ db: testDb.db }, { email: `spray-${attempt}@example.test`, password: "x", clientAddress: "10.2.2.2" });
    }
    await createAccount("innocent@example.test", "correct horse battery");
    const fromSprayer = await signInWithPassword(
      { db: testDb.db },
      {
        email: "innocent@example.test",
        password: "correct horse battery",
        clientAddress: "10.2.2.2",
      },
    );
    const fromElsewhere = await signInWithPassword(
      { db: testDb.db },
      {
        email: "innocent@example.test",
        password: "correct horse battery",
        clientAddress: "10.3.3.3",
      },
    );
    expect(fromSprayer).toMatchObject({ ok: false, reason: "throttled" });
    expect(fromElsewhere.ok).toBe(true);
  });

  it("checks at most the account's limit of 40 simultaneous attempts; the rest are refused unchecked", async () => {
    await createAccount("stormed@example.test", "correct horse battery");
    const attempts = Array.from({ length: 40 }, (_, index) => (index === 39 ? "correct horse battery" : `guess-${index}`));
    const results = await Promise.all(
      attempts.map((password, index) =>
        signInWithPassword({ db: testDb.db }, { email: "stormed@example.test", password, clientAddress: `10.4.0.${index}` }),
      ),
    );
    const checked = results.filter((result) => result.ok || result.reason === "invalid");
    expect(checked.length).toBeLessThanOrEqual(signInLimits.perAccount.limit);
    expect(results.filter((result) => !result.ok && result.reason === "throttled").length).toBeGreaterThanOrEqual(40 - signInLimits.perAccount.limit);
    const failures = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(failures.filter((entry) => entry.actorEmail === "stormed@example.test").length).toBeLessThanOrEqual(signInLimits.perAccount.limit);
  });

  it("a successful sign-in does not use up the address's allowance", async () => {
    await createAccount("regular@example.test", "correct horse battery");
    for (let attempt = 0; attempt < signInLimits.perAddress.limit + 5; attempt++) {
      const result = await signInWithPassword(
        { db: testDb.db },
        {
          email: "regular@example.test",
          password: "correct horse battery",
          clientAddress: "10.5.5.5",
        },
      );
      expect(result.ok).toBe(true);
    }
  });

  it("refuses the password of an account linked to single sign-on like a wrong one, and counts it towards the throttle", async () => {
    // Linked before linking cleared passwords, the account still holds one: the provider decides all the same.
    await testDb.db.insert(users).values({
      email: "linked@example.test",
      role: "support",
      passwordHash: await hashPassword("correct horse battery"),
      oidcSubject: "idp-linked",
    });
    const attempt = (clientAddress: string) =>
      signInWithPassword({ db: testDb.db }, { email: "linked@example.test", password: "correct horse battery", clientAddress });
    for (let index = 0; index < signInLimits.perAccount.limit; index++)
      expect(await attempt(`10.6.0.${index}`)).toEqual({ ok: false, reason: "invalid" });
    expect(await attempt("10.6.1.1")).toMatchObject({ ok: false, reason: "throttled" });
    const failures = await testDb.db.select().from(auditLog).where(eq(auditLog.actorEmail, "linked@example.test"));
    expect(failures.map((entry) => entry.details)).toContainEqual({ reason: "single sign-on account" });
  });
});
