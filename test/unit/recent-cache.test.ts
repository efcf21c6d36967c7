import { describe, expect, it } from 'vitest';
import { RecentCache } from '../../src/ui/ink-patch/recent-cache.js';

describe('RecentCache', () => {
  it('never holds more than two generations, however many distinct keys pass through', () => {
    const cache = new RecentCache<string, number>(100);
    for (let i = 0; i < 100_000; i++) cache.set(`text ${i}`, i);
    expect(cache.size).toBeLessThanOrEqual(200);
    expect(cache.get('text 99999')).toBe(99_999);
    expect(cache.get('text 0')).toBeUndefined();
  });

  it('keeps an entry read at every frame, while a stream of new ones passes through', () => {
    const cache = new RecentCache<string, number>(10);
    cache.set('status bar', 1);
    for (let frame = 0; frame < 1_000; frame++) {
      expect(cache.get('status bar'), `frame ${frame}`).toBe(1);
      cache.set(`streamed text at frame ${frame}`, frame);
    }
  });

  it('forgets an entry no longer read once two generations have passed', () => {
    const cache = new RecentCache<string, number>(2);
    cache.set('old', 1);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 0);
    expect(cache.get('old')).toBeUndefined();
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RecentCache(0)).toThrow(/positive integer/);
    expect(() => new RecentCache(1.5)).toThrow(/positive integer/);
  });
});
