import { systemContext } from "@/lib/operations/context";
// A worker process for crash tests: runs one session, so that a test can kill -9 it mid-step.
import { connectDatabase } from "@/db/client";
import { runSession } from "../run-session";

const [sessionId] = process.argv.slice(2);
if (!sessionId || !process.env.DATABASE_URL) throw new Error("usage: DATABASE_URL=… session-worker-child.ts <session id>");
const connection = connectDatabase(process.env.DATABASE_URL);
const result = await runSession(systemContext(connection.db), {
  sessionId,
  owner: "doomed-worker",
  client: { retryRuntime: { random: () => 0, sleep: async () => {} } },
});
process.stdout.write(`${result}\n`);
await connection.close();
