/** The breaker's states on a clock the test moves: open after failures in a row, probes after the cool-down. */
import { describe, expect, it } from 'vitest';
import { breakerRefusal, CircuitBreaker } from '../../src/mcp/circuit-breaker.js';

function breaker() {
  let now = 0;
  const circuit = new CircuitBreaker({ failures: 3, cooldownMs: 1_000, ceilingMs: 3_000 }, () => now);
  return { circuit, wait: (ms: number) => (now += ms) };
}

describe('CircuitBreaker', () => {
  it('opens after the failures in a row, not before; a success in between starts the count again', () => {
    const { circuit } = breaker();
    circuit.recordFailure();
    circuit.recordFailure();
    circuit.recordSuccess();
    circuit.recordFailure();
    circuit.recordFailure();
    expect(circuit.allows()).toBe(true);
    circuit.recordFailure();
    expect(circuit.allows()).toBe(false);
    expect(circuit.state()).toEqual({ state: 'open', failures: 3, retryInMs: 1_000 });
  });

  it('after the cool-down a probe goes through: its failure doubles the wait (to the ceiling), its success closes it', () => {
    const { circuit, wait } = breaker();
    for (let i = 0; i < 3; i++) circuit.recordFailure();
    wait(999);
    expect(circuit.allows()).toBe(false);
    wait(1);
    expect(circuit.state()).toEqual({ state: 'half-open', failures: 3 });
    expect(circuit.allows()).toBe(true);
    circuit.recordFailure();
    expect(circuit.state()).toEqual({ state: 'open', failures: 4, retryInMs: 2_000 });
    wait(2_000);
    circuit.recordFailure();
    expect(circuit.state()).toMatchObject({ retryInMs: 3_000 });
    wait(3_000);
    circuit.recordFailure();
    expect(circuit.state()).toMatchObject({ retryInMs: 3_000 });
    wait(3_000);
    circuit.recordSuccess();
    expect(circuit.state()).toEqual({ state: 'closed' });
    // Closed again, the next opening waits the first cool-down, not the last.
    for (let i = 0; i < 3; i++) circuit.recordFailure();
    expect(circuit.state()).toMatchObject({ retryInMs: 1_000 });
  });

  it('the model is told how long, why, and what to do meanwhile', () => {
    expect(breakerRefusal('flaky', { state: 'open', failures: 3, retryInMs: 24_100 })).toBe(
      'server "flaky" is not being called for the next 25 s: its last 3 calls failed. ' +
        'After that, one call tries it again; until then, do without its tools or tell the user.',
    );
  });
});
