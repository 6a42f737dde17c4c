const rules = new Intl.PluralRules("en");
const numbers = new Intl.NumberFormat("en");

/** "1 error", "2 errors", "1,024 records": a count with its noun in the right number. */
export function pluralize(count: number, one: string, other: string = `${one}s`): string {
  return `${numbers.format(count)} ${rules.select(count) === "one" ? one : other}`;
}

/** "1,024": a count with thousands separators, the one way counts are written. */
export function formatCount(count: number): string {
  return numbers.format(count);
}
