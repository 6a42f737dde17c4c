import type { demoSourceAvailabilitySlots } from "@/db/schema";
import type { DemoProfile } from "./demo-profiles";
import type { DemoCatalogue } from "./generate-catalogue";
import type { Random } from "./random";
import { dayMs, formatWallTime, hourMs, isoWeekday, minuteMs } from "./wall-time";

type SlotInsert = Omit<typeof demoSourceAvailabilitySlots.$inferInsert, "id">;

export const availabilityDays = 7;

/**
 * Free slots of the next seven days (today included) for most bookable services: each provider's
 * opening hours cut into service-long slots, about four in ten still free.
 */
export function* availabilitySlots(sourceKey: string, profile: DemoProfile, catalogue: DemoCatalogue, random: Random, today: number): Generator<SlotInsert> {
  for (const [index, service] of catalogue.services.entries()) {
    // Some services are booked by phone only: they publish no slots.
    if (!service.bookable || index % 5 === 4) continue;
    for (const staffId of service.staffIds) {
      for (let day = today; day < today + availabilityDays * dayMs; day += dayMs) {
        if (profile.closedWeekdays.includes(isoWeekday(day))) continue;
        const close = day + profile.closeHour * hourMs;
        for (let start = day + profile.openHour * hourMs; start + service.durationMinutes * minuteMs <= close; start += service.durationMinutes * minuteMs) {
          if (random.chance(0.4)) yield { sourceKey, staffId, serviceId: service.id, startsAt: formatWallTime(start) };
        }
      }
    }
  }
}
