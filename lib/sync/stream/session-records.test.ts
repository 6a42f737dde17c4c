import { describe, expect, it } from "vitest";
import type { SourceReader } from "@/lib/source/source-reader";
import { createArraySourceReader } from "@/lib/source/testing/array-source-reader";
import { sourceAppointment } from "@/lib/source/testing/source-row-factories";
import { sampleNow, sampleSourceRows } from "../testing/sample-source";
import { createSessionRecords } from "./session-records";

const location = { id: "00000000-0000-4000-8000-000000000001", sourceKey: "salon", timeZone: "Europe/Berlin", country: "DE", automotive: false };

/** The array reader, with the whole-window queries logged as they start and end, each held until `release` lets it go. */
function loggedReader(options: { failFirstRepeatedIds?: boolean } = {}) {
  const inner = createArraySourceReader(sampleSourceRows());
  const log: string[] = [];
  let releases: (() => void)[] = [];
  let failures = options.failFirstRepeatedIds ? 1 : 0;
  const held = async <T>(name: string, answer: () => Promise<T>): Promise<T> => {
    log.push(`start ${name}`);
    await new Promise<void>((resolve) => releases.push(resolve));
    log.push(`end ${name}`);
    return answer();
  };
  const reader: SourceReader = {
    ...inner,
    repeatedIds: (resource, params) =>
      held(`repeatedIds ${resource}`, () => {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new Error("the source went away"));
        }
        return inner.repeatedIds(resource, params);
      }),
    earliestStart: (resource, params) => held(`earliestStart ${resource}`, () => inner.earliestStart(resource, params)),
  };
  /** Lets every held query go and waits until the ones they start are held (or nothing is left). */
  const release = async () => {
    const waiting = releases;
    releases = [];
    waiting.forEach((resolve) => resolve());
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return {
    reader,
    log,
    release,
    drain: async () => {
      for (let round = 0; round < 10; round++) await release();
    },
  };
}

async function readAll(records: ReturnType<typeof createSessionRecords>, type: "appointments" | "contact_details") {
  const rows = [];
  for await (const batch of records.read(type, type)) rows.push(...batch);
  return rows;
}

describe("a streamed session's prefetched source queries", () => {
  it("run one after another in step order, and the reads and the plan that need them ask nothing again", async () => {
    const { reader, log, release, drain } = loggedReader();
    const records = createSessionRecords({ reader, location, now: sampleNow });
    records.prefetch(["calendars", "contact_details", "appointments"]);
    await release();
    // One query at a time: the source's second connection stays free for the step that streams.
    expect(log).toEqual(["start repeatedIds customers"]);
    await release();
    expect(log).toEqual(["start repeatedIds customers", "end repeatedIds customers", "start repeatedIds appointments"]);
    await drain();
    expect(log).toEqual([
      "start repeatedIds customers",
      "end repeatedIds customers",
      "start repeatedIds appointments",
      "end repeatedIds appointments",
      "start earliestStart appointments",
      "end earliestStart appointments",
    ]);
    expect(await records.earliestAppointment()).toBe("2026-02-05");
    expect((await readAll(records, "contact_details")).map((record) => record.record_key)).toEqual(["cu1", "cu2", "cu3", "cu4"]);
    expect(await readAll(records, "appointments")).toHaveLength(5);
    expect(log).toHaveLength(6);
  });

  it("leave a failed query to be asked again by the read that needs it", async () => {
    const { reader, log, drain } = loggedReader({ failFirstRepeatedIds: true });
    const records = createSessionRecords({ reader, location, now: sampleNow });
    records.prefetch(["contact_details"]);
    await drain();
    expect(log).toEqual(["start repeatedIds customers", "end repeatedIds customers"]);
    const reading = readAll(records, "contact_details");
    await drain();
    expect((await reading).map((record) => record.record_key)).toEqual(["cu1", "cu2", "cu3", "cu4"]);
    expect(log).toEqual(["start repeatedIds customers", "end repeatedIds customers", "start repeatedIds customers", "end repeatedIds customers"]);
  });
});

describe("a read started ahead", () => {
  const february = { startDate: "2026-02-01", endDate: "2026-02-28" };
  const march = { startDate: "2026-03-01", endDate: "2026-03-31" };

  /** The array reader, logging when a read's source query starts and when it ends. */
  function readerWithDuplicateInMarch() {
    const rows = sampleSourceRows();
    // " a1" trims to the key of a1 (February).
    rows.appointments!.push(sourceAppointment(" a1", "2026-03-05", { customer_id: "cu2" }));
    const inner = createArraySourceReader(rows);
    const log: string[] = [];
    const reader: SourceReader = {
      ...inner,
      read: (resource, params, options) =>
        (async function* () {
          log.push(`start ${resource} ${params.windowStart}`);
          try {
            yield* inner.read(resource, params, options);
          } finally {
            log.push(`end ${resource} ${params.windowStart}`);
          }
        })(),
    };
    return { reader, log };
  }

  async function readWindow(records: ReturnType<typeof createSessionRecords>, window: typeof march) {
    const rows = [];
    for await (const batch of records.read("appointments", `${window.startDate}..${window.endDate}`, window)) rows.push(...batch);
    return rows;
  }

  it("asks the source at once, is taken by the read of its window, and is checked only then, in the order read", async () => {
    const { reader, log } = readerWithDuplicateInMarch();
    const records = createSessionRecords({ reader, location, now: sampleNow });
    await records.prime("contact_details");
    log.length = 0;
    records.readAhead("appointments", march);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(["start appointments 2026-03-01 00:00:00"]);

    const inFebruary = await readWindow(records, february);
    const inMarch = await readWindow(records, march);
    // March's source query was the one started ahead; February's record came first, so March's copy is the duplicate.
    expect(log).toEqual([
      "start appointments 2026-03-01 00:00:00",
      "start appointments 2026-02-01 00:00:00",
      "end appointments 2026-02-01 00:00:00",
      "end appointments 2026-03-01 00:00:00",
    ]);
    expect(["valid", "warning"]).toContain(inFebruary.find((record) => record.record_key === "a1")?.status);
    expect(inMarch.filter((record) => record.record_key === "a1").map((record) => record.status)).toEqual(["error"]);
    expect(inMarch.map((record) => record.source_id).sort()).toEqual(["a1", "a3", "a5"]);
  });

  it("leaves a source that fails to the read that takes it", async () => {
    const inner = createArraySourceReader(sampleSourceRows());
    const reader: SourceReader = {
      ...inner,
      read: () => {
        throw new Error("connection to the management system was lost");
      },
    };
    const records = createSessionRecords({ reader, location, now: sampleNow });
    expect(() => records.readAhead("appointments", march)).not.toThrow();
    await expect(readWindow(records, march)).rejects.toThrow("connection to the management system was lost");
  });

  it("started again for its window, replaces the one started before", async () => {
    const { reader, log } = readerWithDuplicateInMarch();
    const records = createSessionRecords({ reader, location, now: sampleNow });
    records.readAhead("appointments", march);
    await new Promise((resolve) => setTimeout(resolve, 5));
    records.readAhead("appointments", march);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The first is ended, the second open.
    expect([...log].sort()).toEqual([
      "end appointments 2026-03-01 00:00:00",
      "start appointments 2026-03-01 00:00:00",
      "start appointments 2026-03-01 00:00:00",
    ]);
    expect(await readWindow(records, march)).toHaveLength(3);
    expect(log.filter((line) => line.startsWith("end"))).toHaveLength(2);
    expect(log).toHaveLength(4);
  });

  it("is ended by close when no read takes it", async () => {
    const { reader, log } = readerWithDuplicateInMarch();
    const records = createSessionRecords({ reader, location, now: sampleNow });
    records.readAhead("appointments", march);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await records.close();
    expect(log).toEqual(["start appointments 2026-03-01 00:00:00", "end appointments 2026-03-01 00:00:00"]);
  });
});
