// GET /api/openapi.json – this API as an OpenAPI 3.1 document, built from the zod schemas the handlers parse with
import { buildApiDocument } from "@/lib/api-docs/api-document";
import { routeHandler } from "@/lib/http/route-handler";

export const GET = routeHandler({ action: "api.docs.view" }, async () => buildApiDocument());
