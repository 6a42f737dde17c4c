import type { SyncStepName } from "../step-names";
import { appointmentsStep, contactDetailsStep, openingsStep, vehiclesStep } from "./bulk-steps";
import { calendarsStep, serviceCategoriesStep, servicesStep } from "./catalogue-steps";
import { closeStep, openStep } from "./management-system-steps";
import type { SyncStep } from "./sync-step";

/** The session's steps in protocol order (spec 4.4 item 6; vehicles after contacts, for automotive locations). */
export const stepsByName: Record<SyncStepName, SyncStep> = {
  open: openStep,
  calendars: calendarsStep,
  service_categories: serviceCategoriesStep,
  services: servicesStep,
  contact_details: contactDetailsStep,
  vehicles: vehiclesStep,
  appointments: appointmentsStep,
  openings: openingsStep,
  close: closeStep,
};
