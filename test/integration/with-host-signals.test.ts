/**
 * The signal handling of `withHost`, on the real process: however many hosts are open at once (an
 * editor's ACP agent holds one per session), SIGINT and SIGTERM have one listener each, and none
 * is left once the last host has closed.
 */
import { describe, expect, it } from 'vitest';
import { withHost } from '../../src/session/with-host.js';
import { testRuntime } from '../helpers/test-session.js';

const SESSIONS = 12;

describe('withHost signal listeners', () => {
  it(`are one per signal with ${SESSIONS} hosts open, and gone once they close`, async () => {
    const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    let openCount = 0;
    let release: () => void = () => undefined;
    const allOpen = new Promise<void>((resolve) => (release = resolve));
    let closeAll: () => void = () => undefined;
    const closing = new Promise<void>((resolve) => (closeAll = resolve));
    const runtime = testRuntime();
    const hosts = Array.from({ length: SESSIONS }, () =>
      withHost(runtime, { warn: () => undefined, disabled: () => undefined }, async () => {
        if (++openCount === SESSIONS) release();
        await closing;
      }),
    );
    await allOpen;
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    closeAll();
    await Promise.all(hosts);
    expect(process.listenerCount('SIGINT')).toBe(before.int);
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
  });
});
