/**
 * The guard of one Ollama request: `race` under a signal that has already fired gives up at once,
 * and the step it abandons may still fail (the request torn down under it) without that failure
 * going unhandled, which would end the process; a step failed by the idle timer that settles late
 * does not take the timer from the next step.
 */
import { describe, expect, it, vi } from 'vitest';
import { RequestGuard } from '../../src/ollama/request-guard.js';
import { createLogger } from '../../src/shared/log.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

function guard(signal: AbortSignal, timeoutMs = 1_000): RequestGuard {
  return new RequestGuard({
    timeoutMs,
    signal,
    streaming: true,
    timeoutError: () => new Error('timed out'),
    log: createLogger({ level: 'silent', file: null }),
  });
}

describe('RequestGuard.race', () => {
  it('on a signal already aborted, rejects with the abort and leaves the abandoned step handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      controller.abort();
      let failStep: (error: Error) => void = () => undefined;
      const step = new Promise<string>((_, reject) => (failStep = reject));
      await expect(guard(controller.signal).race(step)).rejects.toMatchObject({ name: 'AbortError' });
      failStep(new Error('socket torn down'));
      // Node reports an unhandled rejection after the microtasks of the turn it happened in.
      await new Promise((resolve) => setImmediate(resolve));
      await vi.waitFor(() => expect(unhandled).toEqual([]), CONDITION_WAIT);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('on a signal that fires while waiting, rejects with the abort', async () => {
    const controller = new AbortController();
    const raced = guard(controller.signal).race(new Promise<string>(() => undefined));
    controller.abort();
    await expect(raced).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a step the idle timer failed, settling later, leaves the next step under the timer', async () => {
    const raced = guard(new AbortController().signal, 20);
    let tearDownFirst: (error: Error) => void = () => undefined;
    const first = new Promise<string>((_, reject) => (tearDownFirst = reject));
    await expect(raced.race(first)).rejects.toThrow('timed out');
    const second = raced.race(new Promise<string>(() => undefined));
    tearDownFirst(new Error('socket torn down'));
    await expect(second).rejects.toThrow('timed out');
  });
});
