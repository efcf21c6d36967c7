/**
 * The tool-call benchmark's CPU pinning (bench/lib/cpu-pinning.ts) on real processes: this process
 * goes to one CPU, a child and the child it forked (as a server forks its evaluator) to another,
 * every thread of each, and this process gets its CPUs back. Read back with `taskset` itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pinCpus } from '../../bench/lib/cpu-pinning.js';

function affinity(pid: number): string {
  const output = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return output.slice(output.lastIndexOf(':') + 1).trim();
}

/** Every thread's CPUs (a process's threads keep their own affinity). */
function threadAffinities(pid: number): string[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => affinity(Number(tid)));
}

function canPin(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return affinity(process.pid).split(/[,-]/).length >= 2;
  } catch {
    return false; // No taskset.
  }
}

/** A child that forks a grandchild and prints its pid once both run; both stay until killed. */
function childWithGrandchild(): Promise<{ child: ChildProcess; grandchildPid: number }> {
  const script = `
    const { spawn } = require('node:child_process');
    const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    grandchild.once('spawn', () => process.stdout.write(grandchild.pid + '\\n'));
    process.once('SIGTERM', () => { grandchild.kill(); process.exit(0); });
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', (data: Buffer) => resolve({ child, grandchildPid: Number(data.toString().trim()) }));
  });
}

describe.skipIf(!canPin())('CPU pinning for the tool-call benchmark', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill();
  });

  it('puts this process on one CPU, its children and theirs on another, and gives the CPUs back', async () => {
    const original = affinity(process.pid);
    const started = await childWithGrandchild();
    child = started.child;
    const pinning = pinCpus();
    expect(pinning).toBeDefined();
    if (!pinning) return;
    try {
      expect(pinning.clientCpu).not.toBe(pinning.serverCpu);
      expect(new Set(threadAffinities(process.pid))).toEqual(new Set([String(pinning.clientCpu)]));
      pinning.pinChildren();
      for (const pid of [started.child.pid ?? 0, started.grandchildPid])
        expect(new Set(threadAffinities(pid))).toEqual(new Set([String(pinning.serverCpu)]));
    } finally {
      pinning.release();
    }
    expect(affinity(process.pid)).toBe(original);
  });
});

describe.skipIf(process.platform !== 'linux')('CPU pinning where it is not allowed', () => {
  it('pins nothing where this process may not change its CPUs', () => {
    // A `taskset` that reports two CPUs but refuses to set any, as a sandbox that forbids it would.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskset-'));
    const fake = path.join(dir, 'taskset');
    fs.writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = "-a" ]; then echo "taskset: failed to set pid affinity: Operation not permitted" >&2; exit 1; fi\n' +
        'echo "pid $3\'s current affinity list: 0,1"\n',
      { mode: 0o755 },
    );
    const pathBefore = process.env.PATH;
    process.env.PATH = `${dir}${path.delimiter}${pathBefore ?? ''}`;
    try {
      expect(pinCpus()).toBeUndefined();
    } finally {
      process.env.PATH = pathBefore;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
