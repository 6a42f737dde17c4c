// `npm run bench:upload`: streams contact records through the upstream client to the standalone sandbox
// (count-only mode) and prints records/s and the client process's peak RSS for 100k and 500k records.
// Each measurement runs in a fresh child process so one run's heap cannot inflate the next one's peak.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { Readable } from "node:stream";
import { childProcessEnvironment, getConfig } from "@/lib/config/config";
import { sandboxDemo } from "@/lib/sandbox/provision";
import { createUpstreamClient } from "@/lib/upstream/client";
import type { ContactDetailRecord } from "@/lib/upstream/records";
import { startCountOnlySandbox } from "./bench-sandbox";

type Transport = "client" | "fetch";

interface Measurement {
  transport: Transport;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  bytes: number;
  baselineRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  peakExternalMb: number;
}

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
const owner = sandboxDemo.owners[0];
const locationId = owner.locations[0].id;

function contact(index: number): ContactDetailRecord {
  return {
    external_id: `bench-contact-${index}`,
    email: `customer${index}@example.com`,
    email_subscribed: index % 3 !== 0,
    text_message_subscribed: index % 2 === 0,
    first_name: "Firstname",
    last_name: `Lastname${index}`,
    address_line_1: `${index % 500} Long Example Street`,
    city: "Berlin",
    postal_code: String(10_000 + (index % 90_000)),
    mobile_phone_number: `+49151${String(index).padStart(8, "0")}`,
    birthdate: `19${50 + (index % 50)}-0${1 + (index % 9)}-1${index % 10}`,
    gender: index % 2 ? "female" : "male",
    active_membership: index % 5 === 0,
  };
}

async function* generateContacts(count: number): AsyncGenerator<ContactDetailRecord> {
  for (let index = 0; index < count; index += 1) yield contact(index);
}

function sampleMemory(): { stop: () => { rss: number; heap: number; external: number } } {
  const peak = { rss: 0, heap: 0, external: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heap = Math.max(peak.heap, usage.heapUsed);
    peak.external = Math.max(peak.external, usage.external);
  };
  sample();
  const timer = setInterval(sample, 25);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The measured part, inside a fresh child process: one upload of `count` records. */
async function measure(transport: Transport, count: number, apiBaseUrl: string, uploadOrigin: string): Promise<Measurement> {
  const client = createUpstreamClient({ baseUrl: apiBaseUrl, apiKey: sandboxDemo.apiKey, uploadHosts: [new URL(uploadOrigin).host], maxAttempts: 1 });
  const userAccessToken = await client.createUserAccessToken({
    email: owner.email,
    password: owner.password,
    clientId: sandboxDemo.clientId,
    clientSecret: sandboxDemo.clientSecret,
  });
  const accessToken = await client.createLocationAccessToken({
    userAccessToken,
    locationId,
    clientId: sandboxDemo.clientId,
    clientSecret: sandboxDemo.clientSecret,
  });
  const call = { accessToken, locationId };
  await client.updateManagementSystem({ ...call, managementSystem: sandboxDemo.dataSourceName, syncInProgress: true });
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  const sampler = sampleMemory();
  const started = performance.now();
  let bytes = 0;
  if (transport === "client") {
    const outcome = await client.importContactDetails({ ...call, records: () => generateContacts(count) });
    bytes = outcome.bytes;
  } else {
    // The same lazily generated body through Node's built-in fetch (what nodejs/undici#4058 is about).
    const putDataUrl = await client.requestContactDetailsUpload(call);
    async function* body() {
      let first = true;
      yield Buffer.from("[");
      for await (const record of generateContacts(count)) {
        const chunk = Buffer.from((first ? "" : ",") + JSON.stringify(record));
        first = false;
        bytes += chunk.length;
        yield chunk;
      }
      yield Buffer.from("]");
    }
    const response = await fetch(putDataUrl, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    if (!response.ok) throw new Error(`fetch upload answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    await response.text();
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  await client.close();
  return {
    transport,
    records: count,
    seconds: Math.round(seconds * 100) / 100,
    recordsPerSecond: Math.round(count / seconds),
    bytes,
    baselineRssMb: megabytes(baseline),
    peakRssMb: megabytes(peak.rss),
    peakHeapMb: megabytes(peak.heap),
    peakExternalMb: megabytes(peak.external),
  };
}

// A bounded old space makes V8 collect garbage instead of growing the heap lazily, so a rising peak RSS
// means memory actually held; a transport that keeps the whole body runs out of memory instead.
const heapLimitMb = 96;

type Outcome = Measurement | { transport: Transport; records: number; failed: string };

async function runChild(transport: Transport, count: number, apiBaseUrl: string, uploadOrigin: string): Promise<Outcome> {
  const child = spawn(tsx, ["lib/bench/upload-bench.ts", "--measure", transport, String(count), apiBaseUrl, uploadOrigin], {
    cwd: repoRoot,
    env: childProcessEnvironment({}, { nodeOptions: `--expose-gc --max-old-space-size=${heapLimitMb}` }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  if (code !== 0) {
    const outOfMemory = /heap out of memory|Allocation failed/i.test(errors);
    return {
      transport,
      records: count,
      failed: outOfMemory ? `ran out of memory (heap limit ${heapLimitMb} MB)` : `exited with ${code ?? signal}: ${errors.trim().split("\n")[0]}`,
    };
  }
  return JSON.parse(output.trim().split("\n").at(-1)!) as Measurement;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--measure") {
    const measurement = await measure(args[1] as Transport, Number(args[2]), args[3]!, args[4]!);
    console.log(JSON.stringify(measurement));
    return;
  }
  const withFetch = !args.includes("--no-fetch");
  const counts = [100_000, 500_000];
  console.log(`starting the standalone sandbox in count-only mode… (each run: a fresh process, heap limit ${heapLimitMb} MB)`);
  const databaseUrl = getConfig().DATABASE_URL;
  const sandbox = await startCountOnlySandbox(databaseUrl ? { databaseUrl } : { dataDir: ".data/bench-sandbox" });
  try {
    const results: Outcome[] = [];
    for (const transport of withFetch ? (["client", "fetch"] as const) : (["client"] as const)) {
      for (const count of counts) {
        const result = await runChild(transport, count, sandbox.apiBaseUrl, sandbox.uploadOrigin);
        results.push(result);
        console.log(formatLine(result));
      }
    }
    console.log(`sandbox counted: ${JSON.stringify(await sandbox.stats())}`);
    const [small, large] = results.filter((result): result is Measurement => result.transport === "client" && !("failed" in result));
    if (small && large) {
      console.log(`client peak RSS: ${small.peakRssMb} MB at ${small.records} records, ${large.peakRssMb} MB at ${large.records} records`);
    }
  } finally {
    await sandbox.stop();
  }
}

function formatLine(result: Outcome): string {
  if ("failed" in result) return `${result.transport.padEnd(6)} ${String(result.records).padStart(7)} records | FAILED: ${result.failed}`;
  return [
    `${result.transport.padEnd(6)} ${String(result.records).padStart(7)} records`,
    `${String(result.recordsPerSecond).padStart(7)} records/s`,
    `${result.seconds}s`,
    `${megabytes(result.bytes)} MB sent`,
    `RSS baseline ${result.baselineRssMb} MB, peak ${result.peakRssMb} MB`,
    `peak heap ${result.peakHeapMb} MB, external ${result.peakExternalMb} MB`,
  ].join(" | ");
}

main().catch((error: unknown) => {
  console.error("bench failed:", error instanceof Error ? error.message : error);
  process.exit(1);
});
