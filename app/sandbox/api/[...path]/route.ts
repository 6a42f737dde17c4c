// /sandbox/api/v1/* – the upstream simulator's API (lib/sandbox)
import { serveAppSandbox } from "@/lib/sandbox/app-context";

export const dynamic = "force-dynamic";

export { serveAppSandbox as DELETE, serveAppSandbox as GET, serveAppSandbox as POST, serveAppSandbox as PUT };
