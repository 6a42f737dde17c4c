import { pluralize } from "@/lib/format/plural";
import type { Command } from "commander";
import { getDatabase } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-error";
import { LocationId } from "@/lib/locations/location-inputs";
import { closeUpstreamSession } from "@/lib/sync/close-upstream-session";
import { confirmRemovals } from "@/lib/sync/confirm-removals";
import { systemContext, type OperationContext } from "@/lib/operations/context";
import { getSessionView } from "@/lib/sync/read-session-view";
import { listSessionHistory } from "@/lib/sync/read-session-history";
import { sessionRequestMessage } from "@/lib/sync/request-session";
import { cancelSession, resumeSession } from "@/lib/sync/session-actions";
import { startManualSession } from "@/lib/sync/start-manual-session";
import { ConfirmRemovalsInput, ReplayInput, SessionHistoryQuery, SessionId } from "@/lib/sync/session-inputs";
import { optionalStepNames, replayStepNames, type OptionalStepName } from "@/lib/sync/step-names";
import { startReplay } from "@/lib/sync/replay/start-replay";
import { runOrWaitForSession } from "@/lib/sync/wait-for-session";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

function locationIdOf(value: string): string {
  const parsed = LocationId.safeParse({ locationId: value });
  if (!parsed.success) throw new DomainError("INVALID", `<location>: must be a location id (see location:list), got "${forTerminal(value)}"`);
  return parsed.data.locationId;
}

function sessionIdOf(value: string): string {
  const parsed = SessionId.safeParse({ sessionId: value });
  if (!parsed.success) throw new DomainError("NOT_FOUND", "Sync session not found.");
  return parsed.data.sessionId;
}

const stepList = (value: string) =>
  value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);

/** `--reason` makes `sync` a scoped replay: the steps named (appointments: of --from..--to) and nothing else. */
function replayOf(options: { steps?: string; from?: string; to?: string; reason?: string; full?: boolean }): ReplayInput | null {
  if (options.reason === undefined) {
    if (options.from !== undefined || options.to !== undefined) throw new DomainError("INVALID", "--from and --to replay appointments: add --reason");
    return null;
  }
  if (options.full) throw new DomainError("INVALID", "--full sends everything; a replay (--reason) sends only --steps");
  if (options.steps === undefined) throw new DomainError("INVALID", `--reason replays steps: name them with --steps (${replayStepNames.join(",")})`);
  const parsed = ReplayInput.safeParse({ steps: stepList(options.steps), from: options.from, to: options.to, reason: options.reason });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `--${String(issue.path[0] ?? "steps")}: ${issue.message}`);
    throw new DomainError("INVALID", problems.map(forTerminal).join("; "));
  }
  return parsed.data;
}

function stepsOf(value: string | undefined): OptionalStepName[] | undefined {
  if (value === undefined) return undefined;
  const names = stepList(value);
  const unknown = names.filter((name) => !(optionalStepNames as readonly string[]).includes(name));
  if (unknown.some((name) => (replayStepNames as readonly string[]).includes(name)))
    throw new DomainError("INVALID", `--steps: ${unknown.map(forTerminal).join(", ")} can be sent alone only as a replay: add --reason`);
  if (unknown.length)
    throw new DomainError("INVALID", `--steps: ${unknown.map(forTerminal).join(", ")} unknown; choose from ${optionalStepNames.join(", ")}`);
  return names as OptionalStepName[];
}

/** The CLI is the operator's tool: the system actor (lib/auth/permissions), "cli" in the audit log. */
const cliContext = (): OperationContext => systemContext(getDatabase(), "cli", "cli");

// `text` is composed with forTerminal() around every value from the database or the upstream.
const print = (value: unknown, json: boolean | undefined, text: string) =>
  process.stdout.write(json ? `${jsonForTerminal(value, 2)}\n` : `${text}\n`);

export function register(program: Command) {
  program
    .command("sync")
    .description("start a sync session of a location (exit code 0 with --wait only if it succeeded)")
    .argument("<location>", "the location's id (location:list)")
    .option("--full", "full resync: every contact and the whole appointment history")
    .option(
      "--steps <steps>",
      `optional steps to run, comma-separated (${optionalStepNames.join(",")}; default all); with --reason the steps to replay`,
    )
    .option("--reason <why>", `a scoped replay: send only --steps again (${replayStepNames.join(",")}), saying why (audited)`)
    .option("--from <date>", "replay: the first date of the appointments to send again (YYYY-MM-DD)")
    .option("--to <date>", "replay: the last date of the appointments to send again (YYYY-MM-DD)")
    .option("--wait", "run the session here (or wait for the worker running it) until it ends")
    .option("--json", "print JSON")
    .action(
      async (
        location: string,
        options: { full?: boolean; steps?: string; reason?: string; from?: string; to?: string; wait?: boolean; json?: boolean },
      ) => {
        await runWithDatabase(async () => {
          const ctx = cliContext();
          const locationId = locationIdOf(location);
          const replay = replayOf(options);
          const started = replay
            ? await startReplay(ctx, { ...replay, locationId, trigger: "cli" })
            : await startManualSession(ctx, { locationId, trigger: "cli", full: options.full ?? false, optionalSteps: stepsOf(options.steps) });
          const { sessionId } = started;
          if (!options.wait) return void print(started, options.json, sessionRequestMessage({ started: true, sessionId }));
          const status = await runOrWaitForSession(ctx, { sessionId });
          const view = await getSessionView(ctx, { sessionId });
          print(view, options.json, `session ${sessionId} ${status}${view.session.error ? `: ${forTerminal(view.session.error)}` : ""}`);
          if (status !== "succeeded") process.exitCode = 1;
        });
      },
    );

  program
    .command("sessions")
    .description("the latest sync sessions of a location, newest first")
    .argument("<location>", "the location's id")
    .option("--json", "print JSON")
    .action(async (location: string, options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        // The newest page of the location's history, as GET /api/locations/[id]/sessions answers it.
        const { items: sessions } = await listSessionHistory(cliContext(), { ...SessionHistoryQuery.parse({}), locationId: locationIdOf(location) });
        const lines = sessions.map(
          (session) =>
            `${session.id} ${session.status.padEnd(9)} ${session.trigger.padEnd(8)} ${session.createdAt}${session.error ? ` ${forTerminal(session.error)}` : ""}`,
        );
        print(sessions, options.json, lines.join("\n") || "no sessions");
      });
    });

  program
    .command("session")
    .description("one sync session with every step, item and HTTP attempt")
    .argument("<id>", "the session's id")
    .option("--json", "print JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        const view = await getSessionView(cliContext(), { sessionId: sessionIdOf(id) });
        const lines = [
          `session ${view.session.id} ${view.session.status}${view.session.upstreamOpen ? " (upstream session open)" : ""}`,
          ...view.steps.map(
            (step) =>
              `  ${step.name.padEnd(18)} ${step.status.padEnd(9)} sent ${step.recordsSent}, invalid ${step.recordsInvalid}, excluded ${step.recordsExcluded}${step.error ? ` – ${forTerminal(step.error)}` : ""}`,
          ),
          `  ${pluralize(view.attempts.length, "HTTP attempt")}`,
        ];
        print(view, options.json, lines.join("\n"));
      });
    });

  program
    .command("session:resume")
    .description("start a session that continues a failed or cancelled one from its failed step")
    .argument("<id>", "the failed session's id")
    .option("--json", "print JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        const result = await resumeSession(cliContext(), { sessionId: sessionIdOf(id) });
        print({ sessionId: result.sessionId }, options.json, `session ${result.sessionId} queued (resumes ${forTerminal(id)})`);
      });
    });

  program
    .command("session:confirm-removals")
    .description("confirm the removals the safety valve stopped a session for, and send (audited with the reason)")
    .argument("<id>", "the stopped session's id")
    .requiredOption("--reason <text>", "why these removals are right")
    .option("--json", "print JSON")
    .action(async (id: string, options: { reason: string; json?: boolean }) => {
      await runWithDatabase(async () => {
        const input = ConfirmRemovalsInput.safeParse({ reason: options.reason });
        if (!input.success) throw new DomainError("INVALID", `--reason: ${input.error.issues[0]?.message ?? "is not valid"}`);
        const result = await confirmRemovals(cliContext(), { ...input.data, sessionId: sessionIdOf(id) });
        print(result, options.json, `session ${result.sessionId} queued (confirms the removals of ${forTerminal(id)})`);
      });
    });

  program
    .command("session:cancel")
    .description("stop a session between requests (the upstream session stays open)")
    .argument("<id>", "the session's id")
    .action(async (id: string) => {
      await runWithDatabase(async () => {
        const result = await cancelSession(cliContext(), { sessionId: sessionIdOf(id) });
        print(result, false, `session ${forTerminal(id)}: ${result.status === "cancelled" ? "cancelled" : "cancel requested"}`);
      });
    });

  program
    .command("session:close-upstream")
    .description("send sync in progress false for a session that left the upstream session open")
    .argument("<id>", "the session's id")
    .action(async (id: string) => {
      await runWithDatabase(async () => {
        await closeUpstreamSession(cliContext(), { sessionId: sessionIdOf(id) });
        print(null, false, `session ${forTerminal(id)}: upstream session closed`);
      });
    });
}
