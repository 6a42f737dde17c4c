import { escapeUnsafeCharacters } from "@/lib/validation/safe-text";

const MAX_CAUSES = 5;

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" || typeof code === "number" ? escapeUnsafeCharacters(String(code)).slice(0, 40) : undefined;
}

function nameOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const name = error.name !== "Error" ? error.name : error.constructor?.name || "Error";
  return escapeUnsafeCharacters(String(name)).slice(0, 60);
}

/** The stack's code locations: what follows its "Name: message" header (a message may span lines). */
function framesOf(error: unknown): string[] {
  if (!(error instanceof Error) || typeof error.stack !== "string") return [];
  const header = String(error);
  if (!error.stack.startsWith(header)) return [];
  return error.stack
    .slice(header.length)
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .map(escapeUnsafeCharacters);
}

/**
 * What a log line may say about an error: the class and code of it and of its causes
 * (e.g. "DrizzleQueryError ← PostgresError 22021"), Next's digest, and the code locations
 * of its stack. Never its message or properties: a failed query's message carries its SQL
 * and parameters (names, emails), a PostgreSQL `detail` the conflicting values.
 */
export function describeErrorForLog(error: unknown, options: { frames?: boolean } = {}): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined && current !== null; depth += 1) {
    const code = typeof current === "object" ? codeOf(current) : undefined;
    parts.push(code ? `${nameOf(current)} ${code}` : nameOf(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const digest = error && typeof error === "object" ? (error as { digest?: unknown }).digest : undefined;
  const head = `${parts.join(" ← ")}${typeof digest === "string" ? ` (digest ${escapeUnsafeCharacters(digest).slice(0, 40)})` : ""}`;
  return [head, ...(options.frames === false ? [] : framesOf(error))].join("\n");
}

/**
 * An error's message up to its first line break, for a person at a terminal: a failed query's message carries its
 * parameters on the lines after its SQL.
 */
export function firstLineOfError(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

const installed = Symbol.for("location-sync.log-redaction");

/**
 * Makes every console method print errors as describeErrorForLog does: Next.js logs an
 * error thrown while rendering a page, and libraries log theirs, with the whole object
 * (message, query, parameters). Installed once per server or worker process.
 */
export function installLogRedaction(target: Console = console): void {
  const marked = target as Console & { [installed]?: boolean };
  if (marked[installed]) return;
  marked[installed] = true;
  for (const method of ["error", "warn", "log", "info", "debug", "trace"] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => original(...args.map((arg) => (arg instanceof Error ? describeErrorForLog(arg) : arg)));
  }
}
