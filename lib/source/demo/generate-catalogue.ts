import type { DatabaseOrTransaction } from "@/db/client";
import { demoSourceServiceCategories, demoSourceServices, demoSourceServiceStaff, demoSourceStaff } from "@/db/schema";
import type { DemoProfile, DemoService } from "./demo-profiles";
import type { Random } from "./random";
import { dayMs } from "./wall-time";

export interface CatalogueService {
  id: number;
  price: string | null;
  durationMinutes: number;
  bookable: boolean;
  staffIds: number[];
}

/** What the rest of a location's data refers to. */
export interface DemoCatalogue {
  staffIds: number[];
  services: CatalogueService[];
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** Staff names as they end up in such systems: a short display name, none at all, or only a display name. */
function staffRow(sourceKey: string, id: number, profile: DemoProfile, random: Random, changedAt: Date) {
  const firstName = random.pick(profile.firstNames);
  const lastName = random.pick(profile.lastNames);
  const base = { sourceKey, id, updatedAt: changedAt };
  if (id === 1) return { ...base, firstName, lastName, displayName: `${firstName} ${lastName.charAt(0)}.` };
  if (id === 2) return { ...base, firstName, lastName, displayName: null };
  if (id === 3) return { ...base, firstName: null, lastName: null, displayName: firstName };
  if (id === 4) return { ...base, firstName, lastName, displayName: "" };
  return { ...base, firstName, lastName, displayName: random.chance(0.5) ? null : firstName };
}

/** Services added to the profile's menu (a large catalogue): "<category> <n>" in the live categories, 1–3 staff each. */
function generatedServices(profile: DemoProfile, count: number, random: Random): DemoService[] {
  const live = profile.categories.flatMap((category, index) => (category.deleted ? [] : [index]));
  const perCategory = new Map<number, number>();
  return Array.from({ length: count }, () => {
    const category = random.pick(live);
    const number = (perCategory.get(category) ?? 0) + 1;
    perCategory.set(category, number);
    const name = `${profile.categories[category]!.name} ${number}`;
    const durationMinutes = random.pick([15, 30, 45, 60, 90]);
    return {
      name,
      description: random.chance(0.4) ? null : `${name}, ${durationMinutes} min`,
      category,
      price: `${random.int(10, 180)}.${random.pick(["00", "50", "90", "99"])}`,
      durationMinutes,
      bookable: true,
      staffCount: random.int(1, Math.min(3, profile.staffCount)),
    };
  });
}

export interface ExtraServices {
  /** How many services to add after the profile's own. */
  count: number;
  /** A stream of their own, so the profile's rows stay as they are without extra services. */
  random: Random;
}

/** Writes the staff, service categories, services and who provides which service. */
export async function generateCatalogue(
  db: DatabaseOrTransaction,
  sourceKey: string,
  profile: DemoProfile,
  random: Random,
  today: number,
  extra: ExtraServices = { count: 0, random },
): Promise<DemoCatalogue> {
  const changedAt = () => new Date(today - random.int(1, 400) * dayMs);
  const staff = Array.from({ length: profile.staffCount }, (_, index) => staffRow(sourceKey, index + 1, profile, random, changedAt()));
  await db.insert(demoSourceStaff).values(staff);
  const staffIds = staff.map((member) => member.id);

  await db.insert(demoSourceServiceCategories).values(
    profile.categories.map((category, index) => ({
      sourceKey,
      id: index + 1,
      name: category.name,
      position: category.position,
      deletedAt: category.deleted ? new Date(today - 400 * dayMs) : null,
      updatedAt: changedAt(),
    })),
  );

  const added = generatedServices(profile, extra.count, extra.random);
  const menu = [...profile.services, ...added];
  // The profile's services draw from `random`, the added ones from `extra.random`, each in the order they always did.
  const streamOf = (index: number) => (index < profile.services.length ? random : extra.random);
  const services: CatalogueService[] = menu.map((service, index) => ({
    id: index + 1,
    price: service.price,
    durationMinutes: service.durationMinutes,
    bookable: service.bookable,
    staffIds: shuffled(staffIds, streamOf(index))
      .slice(0, service.staffCount)
      .sort((a, b) => a - b),
  }));
  const extraChangedAt = () => new Date(today - extra.random.int(1, 400) * dayMs);
  await db.insert(demoSourceServices).values(
    menu.map((service, index) => ({
      sourceKey,
      id: index + 1,
      categoryId: service.category === null ? null : service.category + 1,
      name: service.name,
      description: service.description,
      bookable: service.bookable,
      price: service.price,
      durationMinutes: service.durationMinutes,
      // A few services were never given a place in the menu.
      position: index % 5 === 3 ? null : index + 1,
      updatedAt: index < profile.services.length ? changedAt() : extraChangedAt(),
    })),
  );
  const links = services.flatMap((service) => service.staffIds.map((staffId) => ({ sourceKey, serviceId: service.id, staffId })));
  if (links.length) await db.insert(demoSourceServiceStaff).values(links);
  return { staffIds, services };
}
