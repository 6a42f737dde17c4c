// /sandbox/uploads/{token} – the simulator's one-time upload addresses
import { serveAppSandbox } from "@/lib/sandbox/app-context";

export const dynamic = "force-dynamic";

export { serveAppSandbox as DELETE, serveAppSandbox as GET, serveAppSandbox as POST, serveAppSandbox as PUT };
