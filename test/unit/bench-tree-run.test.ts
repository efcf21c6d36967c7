/**
 * How the benchmarks count a client's process tree (bench/lib/tree-run.ts under
 * bench/lib/subreaper.py): a process the client started and did not wait for still counts, and
 * one it left running is ended and said, without the run waiting for it.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { runTree } from '../../bench/lib/tree-run.js';

/** A process that spends some tens of ms of CPU, with no start-up to speak of, then exits. */
const BURN = `awk 'BEGIN { for (i = 0; i < 2000000; i++) s += i }'`;

const launch = (script: string) => ({
  command: 'sh',
  args: ['-c', script],
  cwd: os.tmpdir(),
  env: { PATH: process.env.PATH ?? '' },
});

describe('the process tree a benchmark counts', () => {
  it('counts a server the client started and exited without waiting for', async () => {
    const run = await runTree(launch(`${BURN} & echo started`), 30_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('started');
    // The shell itself costs a few ms; counted from its own reaped children, the orphan would be missed.
    expect(run.cpuMs).toBeGreaterThanOrEqual(25);
  });

  it('ends a process the client left running, and says so, rather than waiting for it', async () => {
    const run = await runTree(launch('sleep 600 & exit 3'), 30_000);
    expect(run.code).toBe(3);
    expect(run.leftRunning).toBe(1);
    expect(run.timedOut).toBe(false);
  });
});
