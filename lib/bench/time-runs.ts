function percentile(sortedMs: number[], fraction: number): number {
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
