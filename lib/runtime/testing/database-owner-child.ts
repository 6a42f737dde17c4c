// A process that starts the embedded database as the dashboard does, for lib/runtime/start-database.test.ts to kill or stop.
import { startDatabase } from "../start-database";

const database = await startDatabase();
console.log(`ready ${process.pid}`);
process.on("SIGTERM", () => {
  void database.stop().then(() => process.exit(0));
});
setInterval(() => {}, 60_000);
