// GET /api/locations/[locationId]/preview/records/[seq]?type=… – one record beside its source rows, read now (the side panel)
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { LocationId } from "@/lib/locations/location-inputs";
import { PreviewRecordTypeInput } from "@/lib/preview/preview-inputs";
import { getSourceReader } from "@/lib/preview/preview-source";
import { readPreviewRecord } from "@/lib/preview/read-preview-record";

const Params = LocationId.extend({ seq: z.coerce.number().int().min(0) });
const Query = z.object({ type: PreviewRecordTypeInput });

export const GET = routeHandler({ action: "preview.view", params: Params, query: Query }, async ({ user, params, query }) =>
  readPreviewRecord({ db: getDatabase(), actor: user, reader: getSourceReader() }, { ...params, type: query.type }),
);
