/**
 * Promise.all that waits for every promise to settle before it fails: work started together (queries on their own
 * connections) has ended, whichever failed, when the caller goes on. The first failure in the list is thrown.
 */
export async function settleAll<T extends readonly unknown[] | []>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled(promises as readonly unknown[]);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
