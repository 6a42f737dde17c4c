// /sandbox/api/v1/* – the upstream simulator's API (lib/sandbox)
import { createAppSandboxContext } from "@/lib/sandbox/app-context";
import { handleSandboxRequest } from "@/lib/sandbox/handle-request";

export const dynamic = "force-dynamic";

function handle(request: Request): Promise<Response> {
  return handleSandboxRequest(request, createAppSandboxContext());
}

export { handle as DELETE, handle as GET, handle as POST, handle as PUT };
