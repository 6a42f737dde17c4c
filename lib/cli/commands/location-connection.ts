import type { Command } from "commander";
import { getDatabase } from "@/db/client";
import { systemActorAs } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { connectLocation } from "@/lib/locations/connect-location";
import { disconnectLocation } from "@/lib/locations/disconnect-location";
import { ConnectLocationInput, LocationId } from "@/lib/locations/location-inputs";
import { readSecretFromStdin } from "../read-stdin";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

/** The CLI is the operator's tool: the system actor (lib/auth/permissions), "cli" in the audit log. */
const cliActor = systemActorAs("cli", "cli");

function parseLocationId(id: string): string {
  const parsed = LocationId.safeParse({ locationId: id });
  if (!parsed.success) throw new DomainError("INVALID", `<id>: must be a location id (see location:list), got "${forTerminal(id)}"`);
  return parsed.data.locationId;
}

export function register(program: Command) {
  program
    .command("location:link")
    .description("connect a location with its owner's upstream email; the password is read from standard input and never stored")
    .argument("<id>", "the location's id (location:list)")
    .requiredOption("--email <email>", "the upstream account's email")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: { email: string; json?: boolean }) => {
      await runWithDatabase(async () => {
        const locationId = parseLocationId(id);
        const input = ConnectLocationInput.safeParse({ email: options.email, password: await readSecretFromStdin("password") });
        if (!input.success)
          throw new DomainError("INVALID", input.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
        const location = await connectLocation({ db: getDatabase(), actor: cliActor }, { ...input.data, locationId });
        const summary = {
          id: location.id,
          name: location.name,
          connected: location.connected,
          upstreamAccountEmail: location.upstreamAccountEmail,
          connectedAt: location.connectedAt,
        };
        console.log(
          options.json
            ? jsonForTerminal(summary)
            : `Connected ${forTerminal(location.name)} (${location.id}) as ${forTerminal(location.upstreamAccountEmail)}`,
        );
      });
    });

  program
    .command("location:unlink")
    .description("disconnect a location: delete its location access token")
    .argument("<id>", "the location's id (location:list)")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        const location = await disconnectLocation({ db: getDatabase(), actor: cliActor }, { locationId: parseLocationId(id) });
        console.log(
          options.json
            ? jsonForTerminal({ id: location.id, name: location.name, connected: location.connected })
            : `Disconnected ${forTerminal(location.name)} (${location.id})`,
        );
      });
    });
}
