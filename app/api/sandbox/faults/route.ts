// GET/POST/DELETE /api/sandbox/faults – the inspector's fault controls for the built-in sandbox (not in production mode)
import { getDatabase } from "@/db/client";
import { routeHandler } from "@/lib/http/route-handler";
import { ClearSandboxFaultsQuery, InjectSandboxFaultInput } from "@/lib/sandbox/fault-inputs";
import { clearSandboxFaults, getSandboxFaults, injectSandboxFault } from "@/lib/sandbox/manage-faults";

export const GET = routeHandler({ action: "sandbox.inspect" }, async ({ actor }) => getSandboxFaults({ db: getDatabase(), actor }));

export const POST = routeHandler({ action: "sandbox.faults", body: InjectSandboxFaultInput }, async ({ actor, body }) =>
  Response.json(await injectSandboxFault({ db: getDatabase(), actor }, body), { status: 201 }),
);

export const DELETE = routeHandler({ action: "sandbox.faults", query: ClearSandboxFaultsQuery }, async ({ actor, query }) =>
  clearSandboxFaults({ db: getDatabase(), actor }, query),
);
