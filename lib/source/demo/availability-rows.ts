import type { demoSourceAvailabilitySlots } from "@/db/schema";
import type { DemoProfile } from "./demo-profiles";
import type { CatalogueService, DemoCatalogue } from "./generate-catalogue";
import type { Random } from "./random";
import { dayMs, formatWallTime, hourMs, isoWeekday, minuteMs } from "./wall-time";

type SlotInsert = Omit<typeof demoSourceAvailabilitySlots.$inferInsert, "id">;

export const availabilityDays = 7;

/**
 * Days from today (included) on which `everyServiceOpen` gives every service a free slot: the 72 hours a sync sends
 * openings for start some time today in the location's zone (whose date may be a day off the generator's UTC
 * "today"), so they always cover at least two whole days of these four, one of them open.
 */
export const openingDays = 4;

/** Each service-long slot of one provider's opening hours on one day, about four in ten free. */
function* daySlots(
  sourceKey: string,
  profile: DemoProfile,
  service: CatalogueService,
  staffId: number,
  day: number,
  random: Random,
): Generator<SlotInsert> {
  const close = day + profile.closeHour * hourMs;
  for (
    let start = day + profile.openHour * hourMs;
    start + service.durationMinutes * minuteMs <= close;
    start += service.durationMinutes * minuteMs
  ) {
    if (random.chance(0.4)) yield { sourceKey, staffId, serviceId: service.id, startsAt: formatWallTime(start) };
  }
}

/**
 * Free slots of the next seven days (today included) for most bookable services: each provider's
 * opening hours cut into service-long slots, about four in ten still free.
 * With `everyServiceOpen` (a stream of its own, drawn after the others), every service — phone-only,
 * not bookable or without staff too — also gets at least one free slot on each open day of the next `openingDays`.
 */
export function* availabilitySlots(
  sourceKey: string,
  profile: DemoProfile,
  catalogue: DemoCatalogue,
  random: Random,
  today: number,
  everyServiceOpen?: Random,
): Generator<SlotInsert> {
  /** "service id|day" of the slots within the first `openingDays`. */
  const open = new Set<string>();
  for (const [index, service] of catalogue.services.entries()) {
    // Some services are booked by phone only: they publish no slots.
    if (!service.bookable || index % 5 === 4) continue;
    for (const staffId of service.staffIds) {
      for (let day = today; day < today + availabilityDays * dayMs; day += dayMs) {
        if (profile.closedWeekdays.includes(isoWeekday(day))) continue;
        for (const slot of daySlots(sourceKey, profile, service, staffId, day, random)) {
          if (day < today + openingDays * dayMs) open.add(`${service.id}|${day}`);
          yield slot;
        }
      }
    }
  }
  if (!everyServiceOpen) return;
  const extra = everyServiceOpen;
  for (const service of catalogue.services) {
    // A service nobody provides is offered by one of the staff.
    const staffIds = service.staffIds.length ? service.staffIds : [extra.pick(catalogue.staffIds)];
    for (let day = today; day < today + openingDays * dayMs; day += dayMs) {
      if (profile.closedWeekdays.includes(isoWeekday(day)) || open.has(`${service.id}|${day}`)) continue;
      const slots = staffIds.flatMap((staffId) => [...daySlots(sourceKey, profile, service, staffId, day, extra)]);
      if (slots.length) yield* slots;
      else {
        const latest = (profile.closeHour - profile.openHour) * 60 - service.durationMinutes;
        const start = day + profile.openHour * hourMs + extra.int(0, Math.floor(latest / 15)) * 15 * minuteMs;
        yield { sourceKey, staffId: extra.pick(staffIds), serviceId: service.id, startsAt: formatWallTime(start) };
      }
    }
  }
}
