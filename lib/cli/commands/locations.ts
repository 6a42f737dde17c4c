import type { Command } from "commander";
import { getDatabase } from "@/db/client";
import { systemActorAs } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { createLocation } from "@/lib/locations/create-location";
import { listLocations, type LocationListItem } from "@/lib/locations/list-locations";
import { LocationInput, LocationListQuery } from "@/lib/locations/location-inputs";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

// location:link / location:unlink (the connection) live in location-connection.ts.

/** The CLI is the operator's tool: the system actor (lib/auth/permissions), "cli" in the audit log. */
const cliActor = systemActorAs("cli", "cli");

/** Where each input field comes from on the command line, for error messages. */
const flagOf: Record<string, string> = {
  name: "--name",
  timeZone: "--time-zone",
  country: "--country",
  environment: "--environment",
  upstreamLocationId: "--upstream-id",
  sourceKey: "--source-key",
  automotive: "--automotive",
  syncTime: "--sync-time",
};

interface AddOptions {
  name?: string;
  timeZone?: string;
  country: string;
  environment?: string;
  upstreamId?: string;
  sourceKey?: string;
  automotive?: boolean;
  syncTime: string;
  json?: boolean;
}

/** Field problems named by the flags the operator typed, one per line. */
function withFlagNames(error: DomainError): DomainError {
  const fields = error.fields.map((problem) => ({ field: flagOf[problem.field] ?? problem.field, reason: problem.reason }));
  return new DomainError(error.code, error.message, fields);
}

function parseAddOptions(options: AddOptions): LocationInput {
  const parsed = LocationInput.safeParse({
    // Empty rather than undefined, so a missing flag gets the form's message ("Enter a name").
    name: options.name ?? "",
    timeZone: options.timeZone ?? "",
    country: options.country,
    environment: options.environment ?? "",
    upstreamLocationId: options.upstreamId ?? "",
    sourceKey: options.sourceKey ?? "",
    automotive: options.automotive ?? false,
    syncTime: options.syncTime,
  });
  if (parsed.success) return parsed.data;
  const fields = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const field = issue.path.join(".");
    if (!fields.has(field)) fields.set(field, issue.message);
  }
  throw new DomainError(
    "INVALID",
    "the location was not added:",
    [...fields].map(([field, reason]) => ({ field, reason })),
  );
}

async function listAllLocations(q: string | undefined, archived: boolean): Promise<LocationListItem[]> {
  const items: LocationListItem[] = [];
  let after: string | undefined;
  do {
    const page = await listLocations(
      { db: getDatabase(), actor: cliActor },
      LocationListQuery.parse({ q, after, limit: 200, status: archived ? "archived" : undefined }),
    );
    items.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after);
  return items;
}

function formatTable(items: LocationListItem[]): string {
  const rows = [
    ["ID", "NAME", "ENVIRONMENT", "UPSTREAM ID", "STATUS", "SYNC"],
    ...items.map((item) =>
      [
        item.id,
        item.name,
        item.environment,
        item.upstreamLocationId ?? "—",
        item.archived ? "archived" : item.connectionStatus,
        `${item.syncTime} ${item.timeZone}`,
      ].map(forTerminal),
    ),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function register(program: Command) {
  program
    .command("location:add")
    .description("add a location (not connected yet: its owner connects it, or location:link)")
    .option("--name <name>", "display name (required)")
    .option("--time-zone <zone>", "IANA time zone, e.g. Europe/Berlin (required)")
    .option("--country <code>", "two-letter country code: the default region of phone numbers", "US")
    .option("--environment <name>", "staging | production (required)")
    .option("--upstream-id <id>", "the location's ID in the Marketing Automation Service (required)")
    .option("--source-key <key>", "which location of the management system it reads (required)")
    .option("--automotive", "an automotive business: enables the vehicles step")
    .option("--sync-time <HH:MM>", "daily sync time, local, 09:00–18:59", "10:00")
    .option("--json", "print the new location as JSON")
    .action(async (options: AddOptions) => {
      await runWithDatabase(async () => {
        try {
          const location = await createLocation({ db: getDatabase(), actor: cliActor }, parseAddOptions(options));
          console.log(options.json ? jsonForTerminal(location) : location.id);
        } catch (error) {
          throw error instanceof DomainError ? withFlagNames(error) : error;
        }
      });
    });

  program
    .command("location:list")
    .description("list every location in use (all pages); archived ones with --archived")
    .option("--q <text>", "only names containing the text, or the exact upstream location ID")
    .option("--archived", "list the archived locations instead")
    .option("--json", "print the locations as a JSON array")
    .action(async (options: { q?: string; archived?: boolean; json?: boolean }) => {
      await runWithDatabase(async () => {
        const items = await listAllLocations(options.q, options.archived ?? false);
        if (options.json) console.log(jsonForTerminal(items));
        else console.log(items.length ? formatTable(items) : "No locations.");
      });
    });
}
