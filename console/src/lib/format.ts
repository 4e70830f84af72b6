/** How the console writes instants, counts and rates. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const integer = new Intl.NumberFormat();

/** An ISO instant as the operator's locale writes it; a dash when absent. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A count with the locale's grouping. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : integer.format(n);
}

/** A fraction (0.0123) as a percentage with two decimals. */
export function formatRate(fraction: number | null | undefined): string {
  return fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(2)} %`;
}
