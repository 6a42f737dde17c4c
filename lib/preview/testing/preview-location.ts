import type { Database } from "@/db/client";
import { locations } from "@/db/schema";

/** A Berlin location of the test source key "salon", not connected: what a preview test computes runs for. */
export async function createPreviewLocation(db: Database): Promise<string> {
  const [location] = await db
    .insert(locations)
    .values({ name: `Salon ${Math.random()}`, timeZone: "Europe/Berlin", country: "DE", sourceKey: "salon", automotive: false })
    .returning({ id: locations.id });
  return location!.id;
}
