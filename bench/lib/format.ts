/** How RESULTS.md writes a figure: a number rounded to what it can tell, a summary with its spread. */
import type { Summary } from './stats.js';

/** Three significant digits or so, whole numbers as they are; the unit after, if any. */
export function format(value: number, unit = ''): string {
  if (!Number.isFinite(value)) return '—';
  const magnitude = Math.abs(value);
  const digits = Number.isInteger(value) || magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
  const text = value.toFixed(digits);
  return unit === '' ? text : `${text} ${unit}`;
}

export function figure(summary: Summary, unit: string): string {
  const median = format(summary.median, unit);
  if (summary.n === 1) return median;
  return `${median} (${format(summary.p25)}–${format(summary.p75)}, n=${summary.n})`;
}
