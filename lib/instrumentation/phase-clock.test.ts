import { describe, expect, it } from "vitest";
import { phaseClock } from "./phase-clock";

const busyWait = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("phase clock", () => {
  it("counts nothing while off, and returns what it runs", async () => {
    expect(phaseClock.enabled).toBe(false);
    expect(phaseClock.time("map", () => (busyWait(2), 7))).toBe(7);
    expect(await phaseClock.time("send", async () => 8)).toBe(8);
    phaseClock.stop("read", phaseClock.start());
    expect(phaseClock.totals()).toEqual({ read: 0, map: 0, check: 0, encode: 0, send: 0, record: 0, covered: 0 });
  });

  it("adds each phase's time, overlapping phases counted once in covered", async () => {
    phaseClock.enable();
    phaseClock.reset();
    phaseClock.time("map", () => busyWait(5));
    const sending = phaseClock.time("send", () => new Promise((resolve) => setTimeout(resolve, 30)));
    phaseClock.time("encode", () => busyWait(5));
    await sending;
    const started = phaseClock.start();
    busyWait(5);
    phaseClock.stop("read", started);
    await expect(phaseClock.time("record", async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    const totals = phaseClock.totals();
    expect(totals.map).toBeGreaterThanOrEqual(5);
    expect(totals.encode).toBeGreaterThanOrEqual(5);
    expect(totals.read).toBeGreaterThanOrEqual(5);
    expect(totals.send).toBeGreaterThanOrEqual(29);
    // The encode ran inside the send: covered is less than the sum, at least map + send + read.
    expect(totals.covered).toBeGreaterThanOrEqual(totals.map + totals.send + totals.read - 1);
    expect(totals.covered).toBeLessThan(totals.map + totals.send + totals.read + totals.encode + totals.record);
    phaseClock.reset();
    expect(phaseClock.totals().send).toBe(0);
  });
});
