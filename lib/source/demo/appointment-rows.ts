import type { demoSourceAppointments } from "@/db/schema";
import type { DemoProfile } from "./demo-profiles";
import type { CatalogueService, DemoCatalogue } from "./generate-catalogue";
import { messyStatus } from "./messy-values";
import type { Random } from "./random";
import { dayMs, daylightSavingOddTimes, formatWallTime, hourMs, isoWeekday, minuteMs } from "./wall-time";

type AppointmentInsert = Omit<typeof demoSourceAppointments.$inferInsert, "id">;

export interface AppointmentContext {
  sourceKey: string;
  profile: DemoProfile;
  catalogue: DemoCatalogue;
  random: Random;
  /** Wall time of today's midnight. */
  today: number;
  /** First and last wall day appointments fall on: `years` back, about six months ahead. */
  firstDay: number;
  lastDay: number;
  /** Average visits per customer over the whole range; default averageVisits(years). */
  visits?: number;
  /**
   * Rounds a fractional 2 × visits up or down so that the mean stays `visits`: a stream of its own, drawn only when
   * 2 × visits is not whole (never for the default), so the appointment stream is as without it. Without it, rounded.
   */
  visitRounding?: Random;
}

/** Default average visits per customer over the whole range: about five a year. */
export function averageVisits(years: number): number {
  return 5 * (years + 0.5);
}

function appointment(
  context: AppointmentContext,
  customerNo: string | null,
  service: CatalogueService,
  start: number,
  status?: string,
): AppointmentInsert {
  const { sourceKey, catalogue, random, today } = context;
  const end = start + service.durationMinutes * minuteMs;
  const past = start < today;
  const staffId = random.chance(0.01) ? null : random.pick(service.staffIds.length ? service.staffIds : catalogue.staffIds);
  const discounted = service.price !== null && random.chance(0.1) ? (Number(service.price) * 0.9).toFixed(2) : service.price;
  return {
    sourceKey,
    customerNo,
    serviceId: service.id,
    staffId,
    startsAt: formatWallTime(start),
    endsAt: formatWallTime(end),
    price: random.chance(0.03) ? null : discounted,
    status: status ?? messyStatus(random, past),
    // Wall times read as UTC: a few hours off, which does not matter for "when did it last change".
    updatedAt: new Date(past ? Math.min(end + random.int(1, 48) * hourMs, today) : today - random.int(0, 60) * dayMs),
  };
}

function bookableServices(catalogue: DemoCatalogue): CatalogueService[] {
  const bookable = catalogue.services.filter((service) => service.bookable);
  return bookable.length ? bookable : catalogue.services;
}

/** How many visits a customer gets: uniform in 0 … 2 × visits, so `visits` on average. */
function visitCount(context: AppointmentContext, years: number): number {
  const top = 2 * (context.visits ?? averageVisits(years));
  const whole = Math.floor(top);
  if (top === whole || !context.visitRounding) return context.random.int(0, Math.round(top));
  return context.random.int(0, context.visitRounding.chance(top - whole) ? whole + 1 : whole);
}

/** The visits of one customer, spread over the range during opening hours, a few of them late at night. */
export function customerAppointments(context: AppointmentContext, customerNo: string, years: number): AppointmentInsert[] {
  const { profile, random, firstDay, lastDay } = context;
  const services = bookableServices(context.catalogue);
  const count = visitCount(context, years);
  const days = Math.round((lastDay - firstDay) / dayMs);
  return Array.from({ length: count }, () => {
    let day = firstDay + random.int(0, days) * dayMs;
    while (profile.closedWeekdays.includes(isoWeekday(day))) day += dayMs;
    const lateNight = random.chance(0.004);
    const start = lateNight
      ? day + 23 * hourMs + random.pick([15, 30, 45]) * minuteMs
      : day + profile.openHour * hourMs + random.int(0, (profile.closeHour - profile.openHour) * 4 - 1) * 15 * minuteMs;
    // Walk-ins: booked without a customer record.
    return appointment(context, random.chance(0.01) ? null : customerNo, random.pick(services), start);
  });
}

/**
 * Appointments every data set has, whatever its size: in the hour a DST change skips or repeats,
 * across midnight, at midnight, and one per status spelling.
 */
export function showcaseAppointments(context: AppointmentContext, customerNos: readonly string[]): AppointmentInsert[] {
  const { profile, random, today, firstDay, lastDay } = context;
  const services = bookableServices(context.catalogue);
  const customer = () => (customerNos.length ? random.pick(customerNos) : null);
  const starts = [
    ...daylightSavingOddTimes(profile.timeZone, firstDay, lastDay + dayMs),
    today - 3 * dayMs + 23 * hourMs + 30 * minuteMs,
    today - 10 * dayMs,
    today + 5 * dayMs + 23 * hourMs + 45 * minuteMs,
    today + 12 * dayMs,
  ];
  const statuses = ["booked", "completed", "canceled", "no-show", "Canceled", "NO_SHOW", "Completed"];
  return [
    ...starts.map((start) => appointment(context, customer(), random.pick(services), start, start < today ? "completed" : "booked")),
    ...statuses.map((status, index) => appointment(context, customer(), random.pick(services), today - (20 + index) * dayMs + 11 * hourMs, status)),
  ];
}
