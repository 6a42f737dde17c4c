// /sandbox/control/* – fault injection for tests (absent in production mode)
import { serveAppSandbox } from "@/lib/sandbox/app-context";

export const dynamic = "force-dynamic";

export { serveAppSandbox as DELETE, serveAppSandbox as GET, serveAppSandbox as POST, serveAppSandbox as PUT };
