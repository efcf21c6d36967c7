/** When a task call stops itself: quiet for the idle time, or past the ceiling however alive. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userStop, Watchdog } from '../../src/mcp/task-watchdog.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled, after the microtasks pending now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('Watchdog', () => {
  it('fires after the idle time without news, and each sign of life puts it off', async () => {
    const watchdog = new Watchdog(1_000, 60_000);
    await vi.advanceTimersByTimeAsync(900);
    watchdog.alive();
    await vi.advanceTimersByTimeAsync(900);
    expect(await settled(watchdog.fired)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await watchdog.fired).toEqual({ kind: 'timeout' });
    watchdog.stop();
  });

  it('fires at the ceiling however alive the task is', async () => {
    const watchdog = new Watchdog(1_000, 5_000);
    for (let elapsed = 0; elapsed < 5_000; elapsed += 500) {
      watchdog.alive();
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(await settled(watchdog.fired)).toBe(true);
    watchdog.stop();
  });

  it('once stopped, never fires, and news does not arm it again', async () => {
    const watchdog = new Watchdog(1_000, 5_000);
    watchdog.stop();
    watchdog.alive();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled(watchdog.fired)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('userStop', () => {
  it("resolves with the abort's reason, and lets go of the signal when released", async () => {
    const controller = new AbortController();
    const { stopped, release } = userStop(controller.signal);
    controller.abort('Esc');
    expect(await stopped).toEqual({ kind: 'user', reason: 'Esc' });
    release();
    const other = new AbortController();
    const later = userStop(other.signal);
    later.release();
    other.abort('too late');
    expect(await settled(later.stopped)).toBe(false);
  });
});
