/** What a new configuration changes in the running servers: added, removed, changed (by its resolved entry). */
import { describe, expect, it } from 'vitest';
import { describeChange, serverSetChange } from '../../src/mcp/server-set-change.js';
import { stdioServer } from '../helpers/server-configs.js';

describe('serverSetChange', () => {
  it('names the added, the removed and the changed; an identical entry is no change', () => {
    const running = [stdioServer('a', ['a.js']), stdioServer('b', ['b.js']), stdioServer('c', ['c.js'])];
    const next = [
      stdioServer('a', ['a.js']),
      stdioServer('b', ['b.js'], { env: { X: '1' } }),
      stdioServer('d', ['d.js']),
    ];
    const change = serverSetChange(running, next);
    expect(change.added.map((config) => config.name)).toEqual(['d']);
    expect(change.removed).toEqual(['c']);
    expect(change.changed.map((config) => config.name)).toEqual(['b']);
    expect(describeChange(change)).toBe('added d; removed c; restarted b');
    expect(describeChange(serverSetChange(running, running))).toBe('no server changed');
  });
});
