import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatLocalDay } from "@/lib/format/time";
import { pluralize } from "@/lib/format/plural";
import type { ServiceCalendar } from "@/lib/preview/openings-calendar";
import { isSendable } from "@/lib/pipeline/record-status";

/**
 * The openings of the next 72 hours as a calendar per service: a column per local day, a row per hour, each slot with
 * its start and the staff it is with; slots that are not sent are struck through. One service is open at a time (the
 * first at first); each grid scrolls sideways in its own box on a phone.
 */
export function OpeningsCalendar({ services, truncated }: { services: ServiceCalendar[]; truncated: boolean }) {
  if (services.length === 0) return <p className="text-sm text-slate-600">No openings in the next 72 hours.</p>;
  return (
    <div className="flex flex-col gap-3">
      {truncated ? <p className="text-sm text-slate-600">Only the first openings are drawn; the table below lists them all.</p> : null}
      {services.map((service, index) => {
        const sent = service.slots.filter(isSendable).length;
        const hours = [...new Set(service.times.map((time) => `${time.slice(0, 2)}:00`))];
        return (
          <details key={service.serviceKey} open={index === 0} aria-label={`Openings of ${service.serviceName}`}>
            <summary className="cursor-pointer text-sm font-medium">
              {service.serviceName}{" "}
              <span className="font-normal text-slate-600">
                · {pluralize(service.slots.length, "opening")}
                {sent < service.slots.length ? `, ${sent.toLocaleString("en")} sent` : ""}
              </span>
            </summary>
            <div className="mt-2">
              <Table aria-label={`Calendar of ${service.serviceName}`}>
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-16">Time</TableHead>
                    {service.days.map((day) => (
                      <TableHead key={day} className="min-w-32">
                        {formatLocalDay(day)}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {hours.map((hour) => (
                    <TableRow key={hour}>
                      <TableHead scope="row" className="font-normal text-slate-600">
                        {hour}
                      </TableHead>
                      {service.days.map((day) => (
                        <TableCell key={day}>
                          <ul className="flex flex-wrap gap-1">
                            {service.slots
                              .filter((slot) => slot.day === day && slot.time.slice(0, 2) === hour.slice(0, 2))
                              .map((slot) => {
                                const notSent = !isSendable(slot);
                                return (
                                  <li
                                    key={slot.seq}
                                    className={
                                      notSent
                                        ? "rounded bg-red-100 px-1.5 py-0.5 text-xs text-red-900 line-through"
                                        : "rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-900"
                                    }
                                  >
                                    {slot.time} {slot.calendar}
                                    {notSent ? <span className="sr-only"> (not sent)</span> : null}
                                  </li>
                                );
                              })}
                          </ul>
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          </details>
        );
      })}
    </div>
  );
}
