/** Counts of rows by some key, as the searches for deleted rows compare the source's with ours. */
export const totalOf = (counts: Iterable<number>) => [...counts].reduce((total, rows) => total + rows, 0);

/** The keys whose counts differ between the two sides (a key one side lacks counts 0 there). */
export const differingKeys = (theirs: ReadonlyMap<string, number>, ours: ReadonlyMap<string, number>) =>
  [...new Set([...theirs.keys(), ...ours.keys()])].filter((key) => (theirs.get(key) ?? 0) !== (ours.get(key) ?? 0));
