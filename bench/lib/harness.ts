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

export async function alternate<T>(rounds: Rounds, measured: Sampler<T>, baseline: Sampler<T>): Promise<Paired<T>> {
  for (let round = 0; round < rounds.warmup; round++) {
    await measured();
    await baseline();
  }
  const result: Paired<T> = { measured: [], baseline: [] };
  for (let round = 0; round < rounds.runs; round++) {
    const measuredFirst = round % 2 === 0;
    if (measuredFirst) result.measured.push(...(await measured()));
    result.baseline.push(...(await baseline()));
    if (!measuredFirst) result.measured.push(...(await measured()));
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
