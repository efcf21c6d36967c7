/**
 * Summaries of repeated measurements: median and spread (quartiles, extremes, p99) of a
 * sample. Percentiles interpolate linearly between ranks, so small samples stay honest.
 */

export interface Summary {
  n: number;
  median: number;
  p25: number;
  p75: number;
  p99: number;
  min: number;
  max: number;
}

/** The q-th quantile (0..1) of values already sorted ascending. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (sorted.length - 1) * q;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error('nothing to summarize: no samples');
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    p99: quantile(sorted, 0.99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Median of `measured` over median of `baseline`. */
export function ratioOf(measured: Summary, baseline: Summary): number {
  return measured.median / baseline.median;
}

export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
