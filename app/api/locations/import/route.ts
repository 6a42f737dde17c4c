// POST /api/locations/import – { csv, dryRun }: check every row of a CSV file of locations (dry run), or create them all and invite their owners
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { importLocations } from "@/lib/locations/import-locations";
import { IMPORT_MAX_BYTES, LocationImportInput } from "@/lib/locations/location-import-inputs";

export const POST = routeHandler(
  // The file travels as a JSON string: room for its escaping.
  { action: "location.import", body: LocationImportInput, maxBodyBytes: IMPORT_MAX_BYTES * 2 },
  async ({ actor, body }) => importLocations({ db: getDatabase(), actor }, body),
);
