import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/db/testing/test-database";
import { demoLocations } from "@/lib/runtime/seed-demo";
import { averageVisits } from "./appointment-rows";
import { ensureDemoSource } from "./ensure-demo-source";
import { generateDemoSource } from "./generate-demo-source";

const testDb = await useTestDatabase();
const today = "2025-06-15";
const size = { locations: 3, contacts: 120, years: 1, today };

const tables = [
  "locations",
  "staff",
  "service_categories",
  "services",
  "service_staff",
  "customers",
  "vehicles",
  "appointments",
  "availability_slots",
];

/** Every row of every table for one source key, without the source key and the customers' surrogate id. */
async function snapshot(sourceKey: string, sql: Pick<typeof testDb.sql, "unsafe"> = testDb.sql): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of tables) {
    const withoutKeys = `to_jsonb(t) - 'source_key' - ${table === "customers" ? "'id'" : "''"}`;
    const rows = await sql.unsafe(`select ${withoutKeys} as row from demo_source.${table} t where source_key = $1 order by (${withoutKeys})::text`, [
      sourceKey,
    ]);
    result[table] = rows.map((row) => row.row);
  }
  return result;
}

const values = async (query: string, sourceKey: string) => (await testDb.sql.unsafe(query, [sourceKey])).map((row) => row.value as unknown);

const [salon, , garage] = await generateDemoSource(testDb.db, { ...size, seed: 7, sourceKeys: ["same-a-1", "same-a-2", "same-a-3"] });

describe("generateDemoSource", () => {
  it("creates demo-<seed>-<i> source keys unless told otherwise", async () => {
    expect(await generateDemoSource(testDb.db, { locations: 2, contacts: 3, years: 0, seed: 42, today })).toEqual(["demo-42-1", "demo-42-2"]);
    expect(await values("select source_key as value from demo_source.locations where source_key like $1 order by 1", "demo-42-%")).toEqual([
      "demo-42-1",
      "demo-42-2",
    ]);
  });

  it("writes the same rows for the same seed and day, different rows for another seed", async () => {
    await generateDemoSource(testDb.db, { ...size, seed: 7, sourceKeys: ["same-b-1", "same-b-2", "same-b-3"] });
    await generateDemoSource(testDb.db, { ...size, seed: 8, sourceKeys: ["other-1", "other-2", "other-3"] });
    for (const index of [1, 2, 3]) {
      const first = await snapshot(`same-a-${index}`);
      expect(first.appointments!.length).toBeGreaterThan(0);
      expect(await snapshot(`same-b-${index}`)).toEqual(first);
      const other = await snapshot(`other-${index}`);
      expect(other.customers).not.toEqual(first.customers);
      expect(other.appointments).not.toEqual(first.appointments);
    }
  });

  it("replaces what a source key held when generated again", async () => {
    const options = { locations: 1, contacts: 10, years: 1, seed: 3, today, sourceKeys: ["replaced-1"] };
    await generateDemoSource(testDb.db, options);
    const before = await snapshot("replaced-1");
    await generateDemoSource(testDb.db, { ...options, contacts: 4, seed: 9 });
    expect(new Set((await snapshot("replaced-1")).customers!.map((row) => (row as { customer_no: string }).customer_no)).size).toBe(4);
    await generateDemoSource(testDb.db, options);
    expect(await snapshot("replaced-1")).toEqual(before);
  });

  it("makes `contacts` customers per location and about five appointments per customer and year", async () => {
    for (const sourceKey of [salon!, garage!]) {
      expect(await values("select count(distinct customer_no)::int as value from demo_source.customers where source_key = $1", sourceKey)).toEqual([
        120,
      ]);
      const [appointments] = (await values(
        "select count(*)::int as value from demo_source.appointments where source_key = $1",
        sourceKey,
      )) as number[];
      const expected = 120 * averageVisits(1);
      expect(appointments).toBeGreaterThan(expected * 0.8);
      expect(appointments).toBeLessThan(expected * 1.2);
    }
    expect(await values("select count(*)::int as value from demo_source.vehicles where source_key = $1", salon!)).toEqual([0]);
    expect((await values("select count(*)::int as value from demo_source.vehicles where source_key = $1", garage!))[0]).toBeGreaterThan(60);
  });

  it("spreads appointments over the years back and about six months ahead", async () => {
    const [range] =
      await testDb.sql`select min(starts_at)::date::text as first, max(starts_at)::date::text as last from demo_source.appointments where source_key = ${salon!}`;
    expect(range!.first >= "2024-06-15" && range!.first < "2024-07-01").toBe(true);
    expect(range!.last > "2025-12-01" && range!.last <= "2025-12-15").toBe(true);
  });

  it("has the messiness of real data", async () => {
    const phones = (await values("select phone as value from demo_source.customers where source_key = $1", salon!)) as (string | null)[];
    for (const pattern of [/^0\d+ \d+$/, /^\(0\d+\) /, /^0\d+-\d+$/, /^\+49 /, /^0049 /])
      expect(phones.some((phone) => phone !== null && pattern.test(phone))).toBe(true);
    expect(phones).toEqual(expect.arrayContaining(["n/a", "12345", null, ""]));
    const usPhones = (await values("select phone as value from demo_source.customers where source_key = $1", garage!)) as (string | null)[];
    expect(usPhones.some((phone) => phone !== null && /^\(\d{3}\) 555-\d{4}$/.test(phone))).toBe(true);
    expect(usPhones.some((phone) => phone !== null && phone.startsWith("+1 "))).toBe(true);

    expect(await values("select distinct gender as value from demo_source.customers where source_key = $1", salon!)).toEqual(
      expect.arrayContaining(["F", "female", "Male", "divers", "", null]),
    );
    expect(await values("select email as value from demo_source.customers where source_key = $1", salon!)).toEqual(
      expect.arrayContaining([null, "anna@", "bob at mail.de"]),
    );
    const birthdates = (await values("select birthdate as value from demo_source.customers where source_key = $1", salon!)) as (string | null)[];
    expect(birthdates).toContain("1985-02-30");
    expect(birthdates.some((birthdate) => birthdate !== null && /^\d{4}-\d\d-\d\d$/.test(birthdate) && birthdate > today)).toBe(true);
    expect(
      (
        await values(
          "select count(*)::int as value from (select customer_no from demo_source.customers where source_key = $1 group by 1 having count(*) > 1) d",
          salon!,
        )
      )[0],
    ).toBeGreaterThan(0);

    expect(await values("select distinct status as value from demo_source.appointments where source_key = $1", salon!)).toEqual(
      expect.arrayContaining(["booked", "completed", "canceled", "no-show", "Canceled", "NO_SHOW"]),
    );
    const prices = (await values("select price::text as value from demo_source.appointments where source_key = $1", salon!)) as (string | null)[];
    expect(prices.every((price) => price === null || /^\d+\.\d\d$/.test(price))).toBe(true);
    expect(prices).toContain(null);
    expect(
      (
        await values("select count(*)::int as value from demo_source.appointments where source_key = $1 and starts_at::date <> ends_at::date", salon!)
      )[0],
    ).toBeGreaterThan(0);
    expect(
      (await values("select count(*)::int as value from demo_source.appointments where source_key = $1 and starts_at::time = '00:00'", salon!))[0],
    ).toBeGreaterThan(0);

    expect(await values("select count(*)::int as value from demo_source.staff where source_key = $1 and display_name is null", salon!)).not.toEqual([
      0,
    ]);
    expect(
      await values(
        "select s.name as value from demo_source.services s join demo_source.service_categories c on c.source_key = s.source_key and c.id = s.category_id where s.source_key = $1 and c.deleted_at is not null",
        salon!,
      ),
    ).toEqual(["Sommer-Special"]);
  });

  it("puts appointments in the hour each DST change skips or repeats, in the location's own zone", async () => {
    const odd =
      "select to_char(starts_at, 'YYYY-MM-DD HH24:MI:SS') as value from demo_source.appointments where source_key = $1 and starts_at::time in ('01:30', '02:30') order by 1";
    expect(await values(odd, salon!)).toEqual(["2024-10-27 02:30:00", "2025-03-30 02:30:00", "2025-10-26 02:30:00"]);
    expect(await values(odd, garage!)).toEqual(["2024-11-03 01:30:00", "2025-03-09 02:30:00", "2025-11-02 01:30:00"]);
  });

  it("offers availability for the next seven days for most bookable services", async () => {
    const [slots] = await testDb.sql`
      select min(starts_at)::date::text as first, max(starts_at)::date::text as last, count(distinct service_id)::int as services,
             (select count(*)::int from demo_source.services where source_key = ${salon!} and bookable) as bookable
      from demo_source.availability_slots where source_key = ${salon!}`;
    // 2025-06-15 is a Sunday, when the salon is closed.
    expect(slots).toMatchObject({ first: "2025-06-16", last: "2025-06-21" });
    expect(slots!.services).toBeGreaterThan(slots!.bookable / 2);
    expect(slots!.services).toBeLessThan(slots!.bookable);
  });
});

const sized = { locations: 3, contacts: 3000, years: 2, seed: 7, today, appointments: 8000, services: 30 };
const sizedKeys = await generateDemoSource(testDb.db, { ...sized, sourceKeys: ["sized-1", "sized-2", "sized-3"] });

describe("generateDemoSource with a size (appointments, services)", () => {
  it("leaves the output without them as it was (fingerprints of the rows)", async () => {
    // Recorded before the sizes existed; UTC so that timestamps read the same whatever the server's zone.
    const fingerprints = await testDb.sql.begin(async (tx) => {
      await tx`set local timezone = 'UTC'`;
      const hashes: string[] = [];
      for (const index of [1, 2, 3])
        hashes.push(
          createHash("sha256")
            .update(JSON.stringify(await snapshot(`same-a-${index}`, tx)))
            .digest("hex")
            .slice(0, 16),
        );
      return hashes;
    });
    expect(fingerprints).toEqual(["6068ef31a6a62807", "355da94c844d237c", "571d740ab608b043"]);
  });

  it("makes about the asked number of appointments, the showcase ones included", async () => {
    for (const sourceKey of sizedKeys) {
      const [appointments] = (await values(
        "select count(*)::int as value from demo_source.appointments where source_key = $1",
        sourceKey,
      )) as number[];
      expect(Math.abs(appointments! / sized.appointments - 1)).toBeLessThan(0.03);
      expect(
        await values(
          "select count(*)::int as value from demo_source.appointments where source_key = $1 and starts_at::time in ('01:30', '02:30')",
          sourceKey,
        ),
      ).not.toEqual([0]);
    }
  });

  it("makes the asked number of services, the profile's first, each provided by 1–3 staff", async () => {
    for (const sourceKey of sizedKeys) {
      const services = await testDb.sql<
        { id: number; name: string; category: string | null; deleted: boolean | null; price: string | null; staff: number }[]
      >`
        select s.id, s.name, c.name as category, c.deleted_at is not null as deleted, s.price::text as price,
               (select count(*)::int from demo_source.service_staff l where l.source_key = s.source_key and l.service_id = s.id) as staff
        from demo_source.services s left join demo_source.service_categories c on c.source_key = s.source_key and c.id = s.category_id
        where s.source_key = ${sourceKey} order by s.id`;
      expect(services.map((service) => service.id)).toEqual(Array.from({ length: sized.services }, (_, index) => index + 1));
      const profileSize = sourceKey === "sized-3" ? 9 : 12;
      for (const service of services.slice(profileSize)) {
        expect(service.name).toBe(`${service.category} ${service.name.split(" ").at(-1)}`);
        expect(service.deleted).toBe(false);
        expect(service.price).toMatch(/^\d+\.\d\d$/);
        expect(service.staff).toBeGreaterThanOrEqual(1);
        expect(service.staff).toBeLessThanOrEqual(3);
      }
      expect(new Set(services.map((service) => service.name)).size).toBe(sized.services);
    }
    // The profile's messy cases stay: a service in a deleted category, one nobody provides.
    expect(
      await values(
        "select s.name as value from demo_source.services s join demo_source.service_categories c on c.source_key = s.source_key and c.id = s.category_id where s.source_key = $1 and c.deleted_at is not null",
        "sized-1",
      ),
    ).toEqual(["Sommer-Special"]);
    expect(
      await values(
        "select s.name as value from demo_source.services s where s.source_key = $1 and not exists (select from demo_source.service_staff l where l.source_key = s.source_key and l.service_id = s.id)",
        "sized-1",
      ),
    ).toEqual(["Gutschein"]);
  });

  it("gives every service free slots in the next 72 hours", async () => {
    for (const sourceKey of sizedKeys) {
      // 2025-06-15 is a Sunday, when both profiles are closed: the slots are Monday's and Tuesday's.
      const rows = await testDb.sql<{ id: number; slots: number }[]>`
        select s.id, count(a.id)::int as slots from demo_source.services s
        left join demo_source.availability_slots a on a.source_key = s.source_key and a.service_id = s.id
          and a.starts_at >= ${`${today} 00:00:00`}::timestamp and a.starts_at < ${`${today} 00:00:00`}::timestamp + interval '72 hours'
        where s.source_key = ${sourceKey} group by s.id order by s.id`;
      expect(rows).toHaveLength(sized.services);
      expect(rows.filter((row) => row.slots === 0)).toEqual([]);
    }
  });

  it("keeps the rows the sizes do not concern as they are without them", async () => {
    const plain = await snapshot("same-a-1");
    await generateDemoSource(testDb.db, { ...size, seed: 7, sourceKeys: ["sized-small-1"], locations: 1, appointments: 300, services: 20 });
    const withSizes = await snapshot("sized-small-1");
    for (const table of ["locations", "staff", "service_categories", "customers"]) expect(withSizes[table]).toEqual(plain[table]);
    const profileServices = (rows: unknown[]) => rows.filter((row) => (row as { id: number }).id <= 12);
    expect(profileServices(withSizes.services!)).toEqual(profileServices(plain.services!));
    expect(withSizes.services).toHaveLength(20);
  });
});

describe("ensureDemoSource", () => {
  it("generates the demo locations' data once, in their time zones and countries", async () => {
    expect(await ensureDemoSource(testDb.db)).toBe(true);
    const rows =
      await testDb.sql`select source_key, time_zone, country from demo_source.locations where source_key like 'demo-%' and source_key not like 'demo-42-%' order by source_key`;
    expect(rows.map((row) => ({ ...row }))).toEqual(
      demoLocations
        .map((location) => ({ source_key: location.sourceKey, time_zone: location.timeZone, country: location.country }))
        .sort((a, b) => a.source_key.localeCompare(b.source_key)),
    );
    expect(await values("select count(distinct customer_no)::int as value from demo_source.customers where source_key = $1", "demo-garage")).toEqual([
      300,
    ]);
    expect(await ensureDemoSource(testDb.db)).toBe(false);
  });
});
