/**
 * Processes as the benchmarks see them from outside, through /proc: a process's CPU time and
 * resident memory, its children, every process below it (a client, the MCP servers it
 * started and theirs).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces). */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User plus system CPU time the process has used so far, in milliseconds. */
export function cpuTimeMs(pid: number): number {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of the full line, 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident set size in MB (VmRSS). */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** Resident memory in MB from /proc/<pid>/statm (cheaper to read than status); 0 once it has gone. */
function residentMb(pid: number): number {
  try {
    const resident = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (resident * PAGE_BYTES) / 2 ** 20;
  } catch {
    return 0;
  }
}

/** Every process's parent, read from /proc; processes that exit while we look are left out. */
function parents(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      table.set(Number(name), Number(statFields(Number(name))[1]));
    } catch {
      // Exited while we looked.
    }
  }
  return table;
}

/** The direct children of `pid`. */
export function childPids(pid: number): number[] {
  return [...parents()].filter(([, parent]) => parent === pid).map(([child]) => child);
}

/** `pid` and every process below it. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const tree = [pid];
  for (let at = 0; at < tree.length; at++) tree.push(...(children.get(tree[at] as number) ?? []));
  return tree;
}

/** Resident memory of a set of processes together, in MB. */
export function treeRssMb(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + residentMb(pid), 0);
}
