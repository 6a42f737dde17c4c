// `npm run bench:locations`: seeds 10,000 locations (and an owner of 200 of them) into a fresh database and
// times listLocations for the dashboard's common requests. Prints median and p95 of 30 runs each and exits 1
// when a median exceeds 50 ms. Uses a new database on DATABASE_URL's server when set, else a throwaway
// embedded PostgreSQL (nothing under .data/ is touched).
import { connectDatabase, type Database } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { createFreshDatabase } from "./fresh-database";
import { runBenchmark, runTimedScenarios } from "./time-runs";
import { locationMembers, locations, users } from "@/db/schema";
import { listLocations, type LocationViewer } from "@/lib/locations/list-locations";
import { LocationListQuery } from "@/lib/locations/location-inputs";

const LOCATION_COUNT = 10_000;
const OWNER_MEMBERSHIPS = 200;
const RUNS = 30;
const WARM_UP_RUNS = 3;
const MEDIAN_BUDGET_MS = 50;
const DEEP_PAGE = 100;

const words = ["Salon", "Garage", "Studio", "Barber", "Spa", "Clinic", "Atelier", "Workshop", "Lounge", "Parlour"];
const cities = ["Berlin", "Hamburg", "Munich", "Austin", "Denver", "Leeds", "Porto", "Lyon", "Graz", "Malmo"];
const zones = ["Europe/Berlin", "America/New_York", "America/Chicago", "Europe/London", "Europe/Lisbon"];

/** Varied names (so the order is not the insertion order), a fifth connected, one in fifty needing attention. */
async function seed(db: Database): Promise<{ owner: LocationViewer }> {
  const batchSize = 1_000;
  for (let start = 0; start < LOCATION_COUNT; start += batchSize) {
    const rows = Array.from({ length: batchSize }, (_, offset) => {
      const index = start + offset;
      return {
        name: `${cities[(index * 7) % cities.length]} ${words[index % words.length]} ${(index * 7919) % LOCATION_COUNT}`,
        timeZone: zones[index % zones.length],
        environment: index % 3 === 0 ? ("production" as const) : ("staging" as const),
        upstreamLocationId: `bench-upstream-${index}`,
        sourceKey: `bench-source-${index}`,
        syncTime: `${String(9 + (index % 10)).padStart(2, "0")}:${index % 2 ? "30" : "00"}`,
        locationTokenEncrypted: index % 5 === 0 ? `v1.bench.${index}` : null,
        attentionReason: index % 50 === 0 ? "The upstream refused the location token." : null,
      };
    });
    await db.insert(locations).values(rows);
  }
  const [owner] = await db.insert(users).values({ email: "bench-owner@example.test", role: "owner" }).returning({ id: users.id, role: users.role });
  if (!owner) throw new Error("owner insert returned no row");
  const owned = await db.select({ id: locations.id }).from(locations).limit(OWNER_MEMBERSHIPS);
  await db.insert(locationMembers).values(owned.map((location) => ({ locationId: location.id, userId: owner.id })));
  return { owner };
}

async function cursorOfPage(db: Database, viewer: LocationViewer, page: number): Promise<string> {
  let after: string | undefined;
  for (let current = 1; current < page; current += 1) {
    const result = await listLocations({ db, actor: viewer }, LocationListQuery.parse({ after }));
    if (!result.nextCursor) throw new Error(`only ${current} pages`);
    after = result.nextCursor;
  }
  return after!;
}

async function main() {
  console.log(`creating a fresh database and seeding ${LOCATION_COUNT.toLocaleString("en")} locations…`);
  const fresh = await createFreshDatabase("bench_locations");
  const connection = connectDatabase(fresh.url, { max: 2 });
  try {
    const db = connection.db;
    await applyMigrations(db);
    const { owner } = await seed(db);
    await connection.sql`analyze`;
    const staff: LocationViewer = { id: "bench-staff", role: "support" };
    const deepCursor = await cursorOfPage(db, staff, DEEP_PAGE);
    const list = (viewer: LocationViewer, query: Record<string, unknown>) => () =>
      listLocations({ db, actor: viewer }, LocationListQuery.parse(query));
    const scenarios: [string, () => Promise<unknown>][] = [
      ["first page (staff)", list(staff, {})],
      ['search "salon 12"', list(staff, { q: "salon 12" })],
      ["search exact upstream id", list(staff, { q: "bench-upstream-4242" })],
      ["filter needs_attention + production", list(staff, { status: "needs_attention", environment: "production" })],
      [`page ${DEEP_PAGE} (by cursor)`, list(staff, { after: deepCursor })],
      [`owner's list (${OWNER_MEMBERSHIPS} memberships)`, list(owner, {})],
    ];
    const overBudget = await runTimedScenarios(scenarios, {
      runs: RUNS,
      warmUpRuns: WARM_UP_RUNS,
      budgetMs: MEDIAN_BUDGET_MS,
      isOver: (median) => median > MEDIAN_BUDGET_MS,
      labelWidth: 40,
    });
    if (overBudget) process.exitCode = 1;
  } finally {
    await connection.close();
    await fresh.dispose();
  }
}

runBenchmark(main);
