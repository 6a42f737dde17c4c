// Process-local accounting of where a sync's time goes, for `npm run bench` (lib/bench/sync-bench.ts): wall time
// spent per phase, accumulated at the engine's seams (a line or two each). Off unless enable() is called (the bench's
// children do); off, each call costs one boolean test. Phases may overlap (a batch is
// written while the next is read, records are encoded while the upload is in flight), so their sum may exceed the
// wall time; `covered` is the time inside at least one phase.

export const phases = ["read", "map", "check", "encode", "send", "record"] as const;
export type Phase = (typeof phases)[number];

/** Milliseconds per phase, and the time inside at least one of them. */
export type PhaseTotals = Record<Phase, number> & { covered: number };

let enabled = false;
const totals: Record<Phase, number> = { read: 0, map: 0, check: 0, encode: 0, send: 0, record: 0 };
let open = 0;
let busySince = 0;
let covered = 0;

function begin(): number {
  const now = performance.now();
  if (open++ === 0) busySince = now;
  return now;
}

function end(phase: Phase, started: number): void {
  const now = performance.now();
  totals[phase] += now - started;
  if (--open === 0) covered += now - busySince;
}

export const phaseClock = {
  get enabled(): boolean {
    return enabled;
  },

  enable(): void {
    enabled = true;
  },

  /** Starts timing one stretch of `phase`; pass the result to stop(). 0 when the clock is off. */
  start(): number {
    return enabled ? begin() : 0;
  },

  stop(phase: Phase, started: number): void {
    if (started) end(phase, started);
  },

  /** Runs `run`, counting its time (until its promise settles, for an async one) to `phase`. */
  time<T>(phase: Phase, run: () => T): T {
    if (!enabled) return run();
    const started = begin();
    let result: T;
    try {
      result = run();
    } catch (error) {
      end(phase, started);
      throw error;
    }
    if (result instanceof Promise) return result.finally(() => end(phase, started)) as T;
    end(phase, started);
    return result;
  },

  totals(): PhaseTotals {
    return { ...totals, covered: covered + (open ? performance.now() - busySince : 0) };
  },

  reset(): void {
    for (const phase of phases) totals[phase] = 0;
    covered = 0;
    busySince = open ? performance.now() : 0;
  },
};
