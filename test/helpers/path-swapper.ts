/**
 * Starts and stops the race tests' attacker (`path-swapper-process.mjs`): a separate process
 * that swaps a path inside a sandbox root between its real entry and a link to outside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** `entry`: the real entry and a link to outside, moved in and out by rename. `link`: a link retargeted between inside and outside. */
export type SwapMode = 'entry' | 'link';

export interface SwapperOptions {
  mode: SwapMode;
  /** The path that is swapped. */
  target: string;
  /** Where the swapped-in link points. */
  outside: string;
  /** `link` mode: where the link points when it points inside. */
  insideDir: string;
  /** A file whose existence tells the swapper to stop; it must not exist yet. */
  stopFile: string;
  /** The swapper's own bound, should the test never stop it. */
  maxSwaps: number;
}

export interface Swapper {
  child: ChildProcess;
  /** True while the swapper is still swapping. */
  running(): boolean;
  /** Stops the swapper and resolves with its exit code (0: it never failed). */
  stop(): Promise<number | null>;
}

const SCRIPT = path.join(import.meta.dirname, 'path-swapper-process.mjs');

export function startSwapper(options: SwapperOptions): Swapper {
  const { mode, target, outside, insideDir, stopFile, maxSwaps } = options;
  const child = spawn(process.execPath, [SCRIPT, mode, target, outside, insideDir, stopFile, String(maxSwaps)], {
    stdio: 'inherit',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    running: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      fs.writeFileSync(stopFile, '');
      return exited;
    },
  };
}
