import { Option, type Command } from "commander";
import { getDatabase } from "@/db/client";
import { getConfig } from "@/lib/config/config";
import { DomainError } from "@/lib/errors/domain-error";
import { systemContext } from "@/lib/operations/context";
import { EnvironmentName, type EnvironmentUpdateInput, type EnvironmentView } from "@/lib/environments/environment-inputs";
import { getEnvironmentView } from "@/lib/environments/get-environment-view";
import { updateEnvironment } from "@/lib/environments/update-environment";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

/** Where each input field comes from on the command line, for error messages. */
const sourceOf: Record<string, string> = {
  baseUrl: "--base-url",
  uploadHosts: "--upload-hosts",
  clientId: "--client-id",
  dataSourceName: "--data-source-name",
  dateTimeStyle: "--date-time-style",
  apiKey: "UPSTREAM_API_KEY",
  clientSecret: "UPSTREAM_CLIENT_SECRET",
};

interface SetOptions {
  baseUrl?: string;
  uploadHosts?: string;
  clientId?: string;
  dataSourceName?: string;
  dateTimeStyle?: string;
  apiKey?: string;
  clientSecret?: string;
  serviceMoved?: boolean;
  json?: boolean;
}

export function register(program: Command) {
  program
    .command("env:set")
    .summary("set an environment's upstream settings (secrets from UPSTREAM_API_KEY / UPSTREAM_CLIENT_SECRET)")
    .description(
      "set an environment's upstream settings; the API key and client secret are read from the environment variables UPSTREAM_API_KEY and UPSTREAM_CLIENT_SECRET (needed whenever the base URL or upload hosts change). Options left out keep their stored values.",
    )
    .argument("<name>", "staging | production")
    .option("--base-url <url>", "the upstream base URL, e.g. https://api.example.com")
    .option("--upload-hosts <hosts>", "comma-separated hosts upload addresses may point to, e.g. uploads.example.com")
    .option("--client-id <id>", "the client ID")
    .option("--data-source-name <name>", "the data source name")
    .option("--date-time-style <style>", "how date-times are written: spec (2026-03-10T09:00:00Z+01:00) or rfc3339")
    .option(
      "--service-moved",
      "with a new --base-url: the service itself moved there, so connected locations' tokens go to it (audited); without it they need reconnecting",
    )
    .option("--json", "print the environment (secrets masked) as JSON")
    // Accepted only to refuse them with an explanation: flags land in shell history and `ps`.
    .addOption(new Option("--api-key <value>").hideHelp())
    .addOption(new Option("--client-secret <value>").hideHelp())
    .action(async (nameArgument: string, options: SetOptions) => {
      if (options.apiKey !== undefined || options.clientSecret !== undefined) {
        process.stderr.write(
          "error: secrets are never taken from flags (they end up in shell history and the process list). Set UPSTREAM_API_KEY and UPSTREAM_CLIENT_SECRET in the environment instead.\n",
        );
        process.exitCode = 1;
        return;
      }
      await runWithDatabase(async () => {
        const name = parseName(nameArgument);
        const db = getDatabase();
        const stored = await getEnvironmentView(systemContext(db, "cli"), { name });
        const config = getConfig();
        const input: Partial<EnvironmentUpdateInput> = {
          baseUrl: options.baseUrl ?? stored.baseUrl ?? undefined,
          uploadHosts:
            options.uploadHosts !== undefined ? splitHosts(options.uploadHosts) : stored.uploadHosts.length ? stored.uploadHosts : undefined,
          clientId: options.clientId ?? stored.clientId ?? undefined,
          dataSourceName: options.dataSourceName ?? stored.dataSourceName ?? undefined,
          ...(options.dateTimeStyle !== undefined && { dateTimeStyle: options.dateTimeStyle as EnvironmentUpdateInput["dateTimeStyle"] }),
          apiKey: config.UPSTREAM_API_KEY,
          clientSecret: config.UPSTREAM_CLIENT_SECRET,
          ...(options.serviceMoved && { tokensMoveToNewAddress: true }),
        };
        const view = await updateEnvironment(systemContext(db, "cli"), { name, settings: input }).catch((error: unknown) => {
          throw withCommandLineNames(error);
        });
        printView(view, options.json);
      });
    });

  program
    .command("env:show")
    .description("show an environment's settings (secrets masked)")
    .argument("<name>", "staging | production")
    .option("--json", "print as JSON")
    .action(async (nameArgument: string, options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        printView(await getEnvironmentView(systemContext(getDatabase(), "cli"), { name: parseName(nameArgument) }), options.json);
      });
    });
}

function parseName(value: string) {
  const parsed = EnvironmentName.safeParse(value);
  if (!parsed.success) throw new DomainError("INVALID", `Unknown environment "${forTerminal(value)}": use staging or production.`);
  return parsed.data;
}

function splitHosts(value: string): string[] {
  return value
    .split(",")
    .map((host) => host.trim())
    .filter(Boolean);
}

function withCommandLineNames(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.fields.length) return error;
  const fields = error.fields.map((field) => {
    const [head, ...rest] = field.field.split(".");
    const source = sourceOf[head ?? ""];
    const entry = rest.length ? ` (entry ${Number(rest[0]) + 1})` : "";
    return { field: source ? `${source}${entry}` : field.field, reason: field.reason };
  });
  const summary = error.code === "INVALID" ? "The environment was not changed." : error.message;
  return new DomainError(error.code, summary, fields);
}

function printView(view: EnvironmentView, json?: boolean) {
  if (json) {
    console.log(jsonForTerminal(view, 2));
    return;
  }
  const secret = (status: EnvironmentView["apiKey"]) => (status.set ? (status.hint ?? "set") : "not set");
  const lines: [string, string][] = [
    ["Environment", `${view.name}${view.configured ? "" : " (not configured)"}`],
    ["Base URL", view.baseUrl ?? "—"],
    ["Upload hosts", view.uploadHosts.join(", ") || "—"],
    ["Client ID", view.clientId ?? "—"],
    ["Data source name", view.dataSourceName ?? "—"],
    ["Date-time form", view.dateTimeStyle],
    ["API key", secret(view.apiKey)],
    ["Client secret", secret(view.clientSecret)],
    ["Updated", `${view.updatedAt}${view.updatedBy ? ` by ${view.updatedBy}` : ""}`],
  ];
  for (const [label, value] of lines) console.log(`${label.padEnd(18)}${forTerminal(value)}`);
}
