/**
 * How a benchmark repeats itself: warm-up rounds that are thrown away, then rounds in
 * which the measured side and its baseline alternate, the order swapped every round,
 * so a slow moment on a shared machine lands on both sides rather than one.
 */

export interface Rounds {
  warmup: number;
  runs: number;
}

/** One run of one side: its samples (one or many). */
export type Sampler<T> = () => Promise<T[]>;

export interface Paired<T> {
  measured: T[];
  baseline: T[];
}

/**
 * `measuredLeads` says which side runs first in the warm-up and the first round. A run by itself is
 * not quite even: the side that leads has the first measured sample (just after the other side's
 * warm-up) and one sample fewer that follows one of its own. Benchmarks that pool several runs can
 * let the sides lead in turn.
 */
export async function alternate<T>(
  rounds: Rounds,
  measured: Sampler<T>,
  baseline: Sampler<T>,
  measuredLeads = true,
): Promise<Paired<T>> {
  const result: Paired<T> = { measured: [], baseline: [] };
  const measuredSide = { sample: measured, into: result.measured };
  const baselineSide = { sample: baseline, into: result.baseline };
  const first = measuredLeads ? measuredSide : baselineSide;
  const second = measuredLeads ? baselineSide : measuredSide;
  for (let round = 0; round < rounds.warmup; round++) {
    await first.sample();
    await second.sample();
  }
  for (let round = 0; round < rounds.runs; round++) {
    const order = round % 2 === 0 ? [first, second] : [second, first];
    for (const side of order) side.into.push(...(await side.sample()));
  }
  return result;
}

/** The samples of several runs of `alternate` (each on fresh processes, say), side by side. */
export function pooled<T>(runs: Array<Paired<T>>): Paired<T> {
  return { measured: runs.flatMap((run) => run.measured), baseline: runs.flatMap((run) => run.baseline) };
}

/** Times one async action, in milliseconds. */
export async function timed(action: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await action();
  return performance.now() - began;
}

/** Resolves once `predicate` holds, checking every `intervalMs`; rejects after `timeoutMs` naming `what`. */
export async function until(what: string, predicate: () => boolean, timeoutMs = 20_000, intervalMs = 5): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
