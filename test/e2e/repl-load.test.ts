/**
 * A 100-turn REPL session: the real binary in a terminal (tmux) against the fake Ollama,
 * a calculator call every tenth turn. It answers every turn, the model is sent the whole
 * conversation (it fits), the data it retains (heap snapshots after turns 10 and 100) and its RSS
 * stay bounded, its servers stay the same, and quitting leaves
 * none. How fast it answers is a benchmark's business (bench/), not this test's.
 */
import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_WAIT, useReplSession } from '../helpers/repl-session.js';
import { descendants, isProcessAlive } from '../helpers/server-configs.js';
import { TmuxPane } from '../helpers/tmux.js';
import { heapSnapshots, liveDataBytes } from '../helpers/memory.js';
import { textCall } from '../helpers/turns.js';

const TURNS = 100;

/** Resident memory of a process, from /proc. */
function rssBytes(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1]) * 1024;
}

describe.skipIf(!TmuxPane.available())(`a ${TURNS}-turn REPL session`, () => {
  // SIGUSR2 makes the REPL write a heap snapshot of what survives a full collection into its directory.
  const session = useReplSession({ nodeArgs: ['--heapsnapshot-signal=SIGUSR2'], height: 30 });
  const { pane } = session;

  it('answers every turn with bounded memory and the same servers, and quits leaving nothing behind', async () => {
    await vi.waitFor(() => expect(pane.screen()).toMatch(/calculator ✓ 1.*ready/s), SCREEN_WAIT);
    // `env` execs node in place, so the pane's process is the REPL itself.
    const repl = pane.panePid();
    expect(fs.readFileSync(`/proc/${repl}/cmdline`, 'utf8')).toContain('cli.js');
    let rssAtEnd = 0;
    let baseline = { rss: 0, servers: [] as number[] };
    for (let n = 1; n <= TURNS; n++) {
      const answer = `Answer number ${n}.`;
      if (n % 10 === 0) session.ollama.script(textCall('calculator', 'evaluate', { expression: `${n}*2` }), answer);
      else session.ollama.script(answer);
      pane.type(`Question number ${n}`, 'Enter');
      await session.shows(answer);
      // RSS is compared from turn 20 on: writing the first snapshot (after turn 10) grows it by itself.
      if (n === 20) baseline = { rss: rssBytes(repl), servers: descendants(repl).filter(isProcessAlive) };
      if (n === TURNS) rssAtEnd = rssBytes(repl);
      if (n === 10 || n === TURNS) process.kill(repl, 'SIGUSR2');
    }
    // The snapshot is written on the REPL's own thread: once it answers again, the file is complete.
    session.ollama.script('One more.');
    pane.type('One more', 'Enter');
    await session.shows('One more.');
    const snapshots = heapSnapshots(session.workDir);
    expect(snapshots).toHaveLength(2);
    const [early = 0, late = 0] = snapshots.map(liveDataBytes);
    // What the REPL retains grew by less than 1 MB over 90 turns (about 300 KB; 400 KB when the screen kept every item it drew).
    expect(late - early).toBeLessThan(2 ** 20);
    // RSS also holds garbage not yet collected and warmed-up code: about 15 MB over these turns.
    expect(rssAtEnd - baseline.rss).toBeLessThan(64 * 2 ** 20);
    expect(descendants(repl).filter(isProcessAlive)).toEqual(baseline.servers);
    // The whole conversation fits the model's context, so the model was sent all of it: nothing forgotten.
    const lastRequest = session.ollama.chatRequests.at(-1)?.messages ?? [];
    expect(lastRequest.map((m) => m.content)).toContain('Question number 1');
    expect(lastRequest.filter((m) => m.role === 'user').length).toBeGreaterThan(TURNS);

    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
    await vi.waitFor(() => expect(baseline.servers.filter(isProcessAlive)).toEqual([]), SCREEN_WAIT);
  }, 180_000); // A hundred turns: only a hang reaches this ceiling, on a busy machine too.
});
