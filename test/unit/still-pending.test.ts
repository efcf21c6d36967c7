/** `stillPendingAfter`: names what has not ended by the limit, and waits no longer than needed. */
import { describe, expect, it } from 'vitest';
import { stillPendingAfter } from '../../src/shared/still-pending.js';

describe('stillPendingAfter', () => {
  it('names the work still under way at the limit, and none of what ended or failed', async () => {
    const never = new Promise<void>(() => undefined);
    const failed = Promise.reject(new Error('refused'));
    const pending = await stillPendingAfter({ done: Promise.resolve(), failed, hung: never }, 50);
    expect(pending).toEqual(['hung']);
  });

  it('resolves once everything has ended, long before a limit no test would wait for', async () => {
    let end = (): void => undefined;
    const work = new Promise<void>((resolve) => (end = resolve));
    const result = stillPendingAfter({ work }, 3_600_000);
    end();
    expect(await result).toEqual([]);
  });
});
