/**
 * CPU affinity for a benchmark that compares two clients, each speaking to a server of its own.
 *
 * Why: where the scheduler puts a server and its children decides the server's speed more than
 * either client does. The calculator hands each expression to its evaluator child, so a call wakes
 * three processes in turn; on two cores, a server process and its evaluator either share a core
 * or wake each other across cores, and keep to that. The same calls then run half again as slow
 * through some pairs of fresh processes as through others, whichever client drives them, and a
 * comparison of one build with itself reads as a difference. With this process on one
 * CPU and every server's process tree on another, each server runs as every other does, and the
 * comparison is of the clients.
 *
 * Linux only (util-linux's `taskset`, and `ps` to find a server's children), with at least two
 * CPUs this process may use and leave to set its own; elsewhere nothing is pinned, and `pinCpus`
 * says so by returning undefined.
 */
import { execFileSync } from 'node:child_process';
import { descendants, isProcessAlive } from '../../test/helpers/server-configs.js';

export interface CpuPinning {
  /** The CPU this process (all its threads) runs on until `release`. */
  clientCpu: number;
  /** The CPU the servers run on. */
  serverCpu: number;
  /** Pins every process this one has started, and their children, to `serverCpu`. */
  pinChildren(): void;
  /** Gives this process back the CPUs it had. */
  release(): void;
}

/** `taskset -c -p` prints "pid N's current affinity list: 0,1" (ranges as "0-3"). */
function affinityList(pid: number): number[] {
  const output = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  const list = output.slice(output.lastIndexOf(':') + 1).trim();
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    if (from === undefined || to === undefined || !Number.isInteger(from) || !Number.isInteger(to)) return [];
    return Array.from({ length: to - from + 1 }, (_, index) => from + index);
  });
}

/** Sets the CPUs of every thread of `pid`; a process that exited meanwhile is no error. */
function setAffinity(pid: number, cpus: string): void {
  try {
    execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
  } catch (error) {
    if (isProcessAlive(pid)) throw error;
  }
}

/** Pins this process to its first CPU and offers its children the second; undefined where that cannot be done. */
export function pinCpus(): CpuPinning | undefined {
  if (process.platform !== 'linux') return undefined;
  let original: number[];
  try {
    original = affinityList(process.pid);
  } catch {
    return undefined; // No taskset here.
  }
  const [clientCpu, serverCpu] = original;
  if (clientCpu === undefined || serverCpu === undefined) return undefined;
  try {
    setAffinity(process.pid, String(clientCpu));
  } catch {
    return undefined; // Not allowed here: the rows run unpinned, and say so.
  }
  return {
    clientCpu,
    serverCpu,
    pinChildren: () => {
      for (const pid of descendants(process.pid)) setAffinity(pid, String(serverCpu));
    },
    release: () => setAffinity(process.pid, original.join(',')),
  };
}
