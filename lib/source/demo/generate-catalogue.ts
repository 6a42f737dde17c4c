import type { DatabaseOrTransaction } from "@/db/client";
import { demoSourceServiceCategories, demoSourceServices, demoSourceServiceStaff, demoSourceStaff } from "@/db/schema";
import type { DemoProfile } from "./demo-profiles";
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

/** Writes the staff, service categories, services and who provides which service. */
export async function generateCatalogue(db: DatabaseOrTransaction, sourceKey: string, profile: DemoProfile, random: Random, today: number): Promise<DemoCatalogue> {
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

  const services: CatalogueService[] = profile.services.map((service, index) => ({
    id: index + 1,
    price: service.price,
    durationMinutes: service.durationMinutes,
    bookable: service.bookable,
    staffIds: shuffled(staffIds, random)
      .slice(0, service.staffCount)
      .sort((a, b) => a - b),
  }));
  await db.insert(demoSourceServices).values(
    profile.services.map((service, index) => ({
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
      updatedAt: changedAt(),
    })),
  );
  const links = services.flatMap((service) => service.staffIds.map((staffId) => ({ sourceKey, serviceId: service.id, staffId })));
  if (links.length) await db.insert(demoSourceServiceStaff).values(links);
  return { staffIds, services };
}
