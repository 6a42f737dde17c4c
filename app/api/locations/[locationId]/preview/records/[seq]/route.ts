// GET /api/locations/[locationId]/preview/records/[seq]?type=… – one record beside its source rows, read now (the side panel)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { PreviewRecordParams, PreviewRecordQuery } from "@/lib/preview/preview-inputs";
import { getSourceReader } from "@/lib/preview/preview-source";
import { readPreviewRecord } from "@/lib/preview/read-preview-record";

export const GET = routeHandler({ action: "preview.view", params: PreviewRecordParams, query: PreviewRecordQuery }, async ({ user, params, query }) =>
  readPreviewRecord({ db: getDatabase(), actor: user, reader: getSourceReader() }, { ...params, type: query.type }),
);
