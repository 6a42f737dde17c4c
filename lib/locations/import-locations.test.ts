import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, locationMembers, locations, users } from "@/db/schema";
import { useTestDatabase } from "@/db/testing/test-database";
import type { OperationActor } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { acceptInvite } from "@/lib/users/accept-invite";
import { importLocations } from "./import-locations";
import { inviteLocationOwner } from "./invite-location-owner";

const { db } = await useTestDatabase();

async function person(role: Role, email: string): Promise<OperationActor & { id: string; role: Role }> {
  const [user] = await db.insert(users).values({ email, role }).returning({ id: users.id, role: users.role });
  return { ...user!, email };
}
const support = await person("support", "support@example.test");
await person("engineer", "engineer@example.test");

const header = "name,time_zone,country,environment,upstream_location_id,source_key,sync_time,owner_email";

describe("bulk onboarding from CSV (support)", () => {
  it("the dry run reports every row's problems by row and column, and creates nothing", async () => {
    await db.insert(locations).values({ name: "Existing", environment: "production", upstreamLocationId: "taken-1" });
    const csv = [
      header,
      "Salon A,Europe/Berlin,DE,staging,a-1,src-a,10:00,owner.a@example.test",
      "Salon B,Mars/Olympus,XX,staging,a-1,src-b,22:00,not-an-email",
      "Salon C,UTC,US,production,taken-1,src-c,,engineer@example.test",
      ",UTC,US,qa,c-9,src-d,09:30,",
    ].join("\n");
    const result = await importLocations({ db, actor: support }, { csv, dryRun: true });
    expect(result.problems).toEqual([
      { row: 3, field: "time_zone", reason: expect.stringContaining("IANA time zone") },
      { row: 3, field: "country", reason: expect.stringContaining("two-letter country code") },
      { row: 3, field: "sync_time", reason: expect.stringContaining("between 09:00") },
      { row: 3, field: "owner_email", reason: "Must be an email address" },
      { row: 4, field: "upstream_location_id", reason: "is already used by location Existing (production)" },
      { row: 4, field: "owner_email", reason: expect.stringContaining("staff account") },
      { row: 5, field: "name", reason: "Enter a name" },
      { row: 5, field: "environment", reason: "Choose staging or production" },
    ]);
    expect(result.rows.map((row) => row.name)).toEqual(["Salon A"]);
    expect(await db.select().from(locations)).toHaveLength(1);
    // Still refused when sent without the dry run: all or nothing.
    const real = await importLocations({ db, actor: support }, { csv, dryRun: false });
    expect(real.created).toEqual([]);
    expect(await db.select().from(locations)).toHaveLength(1);
  });

  it("reports a key twice in the file, and a missing column in the header", async () => {
    const twice = await importLocations(
      { db, actor: support },
      { csv: [header, "One,UTC,US,staging,dup,s,10:00,", "Two,UTC,US,staging,dup,s,10:00,"].join("\n"), dryRun: true },
    );
    expect(twice.problems).toEqual([{ row: 3, field: "upstream_location_id", reason: "is also in row 2 (staging)" }]);
    const noCountry = await importLocations(
      { db, actor: support },
      { csv: "name,time_zone,environment,upstream_location_id,source_key\nX,UTC,staging,x,s", dryRun: true },
    );
    expect(noCountry.problems).toEqual([{ row: 1, field: "country", reason: "is missing from the header row" }]);
  });

  it("imports every row in one go and invites each owner once, a member of each of their locations", async () => {
    const csv = [
      header,
      "North,Europe/Berlin,DE,staging,n-1,src-n,09:15,Owner.One@example.test",
      '"South, the big one",Europe/Berlin,de,staging,s-1,src-s,,owner.one@example.test',
      "Garage,America/New_York,US,production,g-1,src-g,11:00,",
    ].join("\r\n");
    const dry = await importLocations({ db, actor: support }, { csv, dryRun: true });
    expect(dry.problems).toEqual([]);
    expect(dry.rows).toHaveLength(3);

    const result = await importLocations({ db, actor: support }, { csv, dryRun: false });
    expect(result.created.map((location) => location.name)).toEqual(["North", "South, the big one", "Garage"]);
    const [south] = await db.select().from(locations).where(eq(locations.name, "South, the big one"));
    expect(south).toMatchObject({ country: "DE", syncTime: "10:00", environment: "staging", upstreamLocationId: "s-1" });
    expect(result.owners).toEqual([
      {
        kind: "invite",
        email: "owner.one@example.test",
        path: expect.stringMatching(/^\/invite\//),
        expiresAt: expect.any(Date),
        locations: ["North", "South, the big one"],
      },
    ]);
    const token = result.owners[0]!.path!.split("/").at(-1)!;
    const accepted = await acceptInvite({ db }, { token, password: "the owner's long password", clientAddress: "x" });
    const memberships = await db.select().from(locationMembers).where(eq(locationMembers.userId, accepted.userId));
    expect(memberships).toHaveLength(2);
    const actions = (await db.select().from(auditLog)).map((entry) => entry.action);
    expect(actions.filter((action) => action === "location.created")).toHaveLength(3);
    expect(actions).toContain("location.imported");

    // The same file again: every row's upstream ID is taken now.
    const again = await importLocations({ db, actor: support }, { csv, dryRun: true });
    expect(again.problems.map((problem) => problem.row)).toEqual([2, 3, 4]);
  });

  it("the same file imported twice at once creates its locations once; the other import reports every row taken", async () => {
    const csv = [header, "Twin A,UTC,US,staging,twin-a,src,10:00,twin.owner@example.test", "Twin B,UTC,US,staging,twin-b,src,10:00,"].join("\n");
    const results = await Promise.all([1, 2, 3].map(() => importLocations({ db, actor: support }, { csv, dryRun: false })));
    expect(results.map((result) => result.created.length).sort()).toEqual([0, 0, 2]);
    for (const refused of results.filter((result) => result.created.length === 0))
      expect(refused.problems.map((problem) => [problem.row, problem.field])).toEqual([
        [2, "upstream_location_id"],
        [3, "upstream_location_id"],
      ]);
    expect(await db.select().from(locations).where(eq(locations.name, "Twin A"))).toHaveLength(1);
  });

  it("names the file's line of a problem past a blank line, a quoted line break, CRLF and a byte-order mark", async () => {
    const csv = [
      `\ufeff${header}`,
      '"Salon\r\nwith a line break",UTC,US,staging,lb-1,src,10:00,',
      "",
      "Salon B,Mars/Olympus,US,staging,lb-2,src,10:00,",
    ].join("\r\n");
    const result = await importLocations({ db, actor: support }, { csv, dryRun: true });
    expect(result.problems).toEqual([
      { row: 2, field: "name", reason: expect.stringContaining("U+000D") },
      { row: 5, field: "time_zone", reason: expect.stringContaining("IANA time zone") },
    ]);
  });

  it("reads a file a spreadsheet saved with semicolons or tabs, whose names may hold commas", async () => {
    const rows = (separator: string) =>
      [
        `\ufeff${header.replaceAll(",", separator)}`,
        ["Salon, Spa & Co", "Europe/Berlin", "DE", "staging", `sep-${separator.charCodeAt(0)}`, "src", "10:00", ""].join(separator),
        ['"Quoted; name"', "Europe/Paris", "FR", "staging", `sep2-${separator.charCodeAt(0)}`, "src", "", ""].join(separator),
      ].join("\r\n");
    for (const separator of [";", "\t"]) {
      const result = await importLocations({ db, actor: support }, { csv: rows(separator), dryRun: true });
      expect(result.problems).toEqual([]);
      expect(result.rows.map((row) => [row.name, row.upstreamLocationId])).toEqual([
        ["Salon, Spa & Co", `sep-${separator.charCodeAt(0)}`],
        ["Quoted; name", `sep2-${separator.charCodeAt(0)}`],
      ]);
    }
  });

  it("an owner still to accept an earlier invitation keeps that location when an import invites them again", async () => {
    const [first] = await db.insert(locations).values({ name: "Earlier", environment: "staging", upstreamLocationId: "earlier-1" }).returning();
    const earlier = await inviteLocationOwner({ db, actor: support }, { locationId: first!.id, email: "pending.owner@example.test", name: "" });
    expect(earlier.kind).toBe("invite");
    const result = await importLocations(
      { db, actor: support },
      { csv: [header, "Later,UTC,US,staging,later-1,src,10:00,pending.owner@example.test"].join("\n"), dryRun: false },
    );
    const token = result.owners[0]!.path!.split("/").at(-1)!;
    const accepted = await acceptInvite({ db }, { token, password: "the owner's long password", clientAddress: "x" });
    const memberships = await db.select().from(locationMembers).where(eq(locationMembers.userId, accepted.userId));
    expect(memberships.map((membership) => membership.locationId).sort()).toEqual([first!.id, result.created[0]!.id].sort());
  });

  it("is refused to an engineer and an owner", async () => {
    const engineer = { id: "00000000-0000-4000-8000-000000000001", role: "engineer" as const, email: "e@example.test" };
    await expect(importLocations({ db, actor: engineer }, { csv: header, dryRun: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
