import { eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "@/db/client";
import { locations } from "@/db/schema";
import { DomainError } from "@/lib/errors/domain-error";

export type LocationRow = typeof locations.$inferSelect;

/** A location's public view: everything but the sealed token, which never leaves lib/. */
export type LocationView = Omit<LocationRow, "locationTokenEncrypted"> & { connected: boolean };

export function toLocationView(row: LocationRow): LocationView {
  const { locationTokenEncrypted, ...rest } = row;
  return { ...rest, connected: Boolean(locationTokenEncrypted) };
}

/** Callers check visibility first (lib/auth/guard assertLocationVisible); this only loads. */
export async function getLocationRow(db: DatabaseOrTransaction, id: string): Promise<LocationRow> {
  const [row] = await db.select().from(locations).where(eq(locations.id, id)).limit(1);
  if (!row) throw new DomainError("NOT_FOUND", "Location not found.");
  return row;
}
