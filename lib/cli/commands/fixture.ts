import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import type { Database } from "@/db/client";
import { getDatabase } from "@/db/client";
import { startSandboxServer } from "@/lib/sandbox/server";
import { replayFixture, type FixtureReplayOutcome } from "@/lib/sync/fixture/replay-fixture";
import { SyncFixture } from "@/lib/sync/fixture/sync-fixture";
import { DateTimeStyle } from "@/lib/upstream/formats";
import type { UpstreamClientOptions } from "@/lib/upstream/client";
import { runWithDatabase } from "../run-with-database";
import { forTerminal } from "../terminal-output";

export interface FixtureReplayOptions {
  /** A running sandbox's API address (its state in this database); default: one started in this process. */
  sandboxUrl?: string;
  /** Its upload origin; default: the API's port + 1, as `npm run sandbox` binds them. */
  sandboxUploadUrl?: string;
  dateTimeStyle?: string;
  /** Tests: retries without waits. */
  client?: Partial<UpstreamClientOptions>;
}

type Output = { out: (line: string) => void; err: (line: string) => void };

/** The file as a fixture, or why it is not one (one line per problem). */
export async function readFixtureFile(path: string): Promise<{ fixture: SyncFixture } | { problems: string[] }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { problems: [`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problems: [`${path} is not JSON`] };
  }
  const parsed = SyncFixture.safeParse(json);
  if (parsed.success) return { fixture: parsed.data };
  return { problems: parsed.error.issues.slice(0, 10).map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`) };
}

function describeAnswer(answer: { status: number | null; upstreamCode: string | null; message: string | null }): string {
  const status = answer.status === null ? "no answer" : String(answer.status);
  return [status, answer.upstreamCode, answer.message]
    .filter(Boolean)
    .map((part) => forTerminal(part))
    .join(" · ");
}

function report(outcome: FixtureReplayOutcome, fixture: SyncFixture, output: Output): void {
  const setup = Object.entries(outcome.setupSent)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${count} ${type}`);
  output.out(`fixture   ${fixture.item.step} ${forTerminal(fixture.item.key)}: ${fixture.records.length} records (session ${fixture.session.id})`);
  output.out(`setup     ${setup.length ? setup.join(", ") : "nothing"} sent first to sandbox location ${outcome.sandboxLocationId}`);
  output.out(`recorded  ${describeAnswer(outcome.recorded)}`);
  output.out(`replayed  ${outcome.replayed.failed ? describeAnswer(outcome.replayed) : `${outcome.replayed.status} (accepted)`}`);
  output.out(outcome.reproduces ? "The failure reproduces." : "The failure does not reproduce.");
}

/**
 * `fixture:replay <file>`: the exit code says the outcome: 0 the failure reproduces, 1 it does not (or the replay
 * could not be made), 2 the file is not a fixture.
 */
export async function runFixtureReplay(db: Database, file: string, options: FixtureReplayOptions, output: Output): Promise<number> {
  const read = await readFixtureFile(file);
  if ("problems" in read) {
    output.err(`error: ${forTerminal(file)} is not a fixture file (Export fixture on a failed import makes one):`);
    for (const problem of read.problems) output.err(`  ${forTerminal(problem)}`);
    return 2;
  }
  const style = DateTimeStyle.safeParse(options.dateTimeStyle ?? "spec");
  if (!style.success) {
    output.err(`error: --date-time-style: must be one of ${DateTimeStyle.options.join(", ")}`);
    return 2;
  }
  const local = options.sandboxUrl ? null : await startSandboxServer({ db });
  try {
    const sandbox = local ?? {
      apiBaseUrl: options.sandboxUrl!,
      uploadOrigin: options.sandboxUploadUrl ?? defaultUploadOrigin(options.sandboxUrl!),
    };
    const outcome = await replayFixture(db, { fixture: read.fixture, sandbox, dateTimeStyle: style.data, client: options.client });
    report(outcome, read.fixture, output);
    return outcome.reproduces ? 0 : 1;
  } finally {
    await local?.close();
  }
}

function defaultUploadOrigin(apiBaseUrl: string): string {
  const url = new URL(apiBaseUrl);
  url.port = String(Number(url.port || (url.protocol === "https:" ? 443 : 80)) + 1);
  return url.origin;
}

export function register(program: Command) {
  program
    .command("fixture:replay")
    .description("send a failed import's fixture (Export fixture) again to the sandbox and say whether the failure reproduces")
    .argument("<file>", "the fixture file (JSON)")
    .option("--sandbox-url <url>", "a running sandbox's API address (npm run sandbox on this database); default: one started here")
    .option("--sandbox-upload-url <url>", "that sandbox's upload address origin (default: its API port + 1)")
    .option("--date-time-style <style>", "the sandbox environment's date-time style: spec or rfc3339", "spec")
    .action(async (file: string, options: FixtureReplayOptions) => {
      await runWithDatabase(async () => {
        process.exitCode = await runFixtureReplay(getDatabase(), file, options, {
          out: (line) => process.stdout.write(`${line}\n`),
          err: (line) => process.stderr.write(`${line}\n`),
        });
      });
    });
}
