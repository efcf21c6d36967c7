/**
 * The benchmarks' alternation (bench/lib/harness.ts): warm-up rounds thrown away, then the two
 * sides in turns with the order swapped every round, led by whichever side the caller names.
 */
import { describe, expect, it } from 'vitest';
import { alternate, type Sampler } from '../../bench/lib/harness.js';

/** Two samplers that log each run in `order` and return their side's letter and run count. */
function loggedSides(order: string[]): { measured: Sampler<string>; baseline: Sampler<string> } {
  const side = (letter: string): Sampler<string> => {
    let runs = 0;
    return async () => {
      runs += 1;
      order.push(letter);
      return [`${letter}${runs}`];
    };
  };
  return { measured: side('m'), baseline: side('b') };
}

describe('alternate', () => {
  it('warms up, then swaps the order every round, the measured side leading by default', async () => {
    const order: string[] = [];
    const { measured, baseline } = loggedSides(order);
    const samples = await alternate({ warmup: 1, runs: 4 }, measured, baseline);
    expect(order).toEqual(['m', 'b', 'm', 'b', 'b', 'm', 'm', 'b', 'b', 'm']);
    expect(samples).toEqual({ measured: ['m2', 'm3', 'm4', 'm5'], baseline: ['b2', 'b3', 'b4', 'b5'] });
  });

  it('lets the baseline lead the warm-up and the first round, and still files each sample under its side', async () => {
    const order: string[] = [];
    const { measured, baseline } = loggedSides(order);
    const samples = await alternate({ warmup: 1, runs: 4 }, measured, baseline, false);
    expect(order).toEqual(['b', 'm', 'b', 'm', 'm', 'b', 'b', 'm', 'm', 'b']);
    expect(samples).toEqual({ measured: ['m2', 'm3', 'm4', 'm5'], baseline: ['b2', 'b3', 'b4', 'b5'] });
  });
});
