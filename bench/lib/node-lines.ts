/**
 * The benchmarks again on the Node lines users run besides the machine's own: each line's
 * official binary comes from the npm registry (the `node` package, as `.ci/run` gets it), and
 * this runner runs once more under it in a child process, with that binary first on PATH, so
 * the CLI, the servers and the baselines the benchmarks spawn (all through `process.execPath`)
 * run on it too. A line that cannot be fetched is reported, not fatal.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LineRun, Results } from './results.js';

/** The lines users run today besides the machine's: the maintained even-numbered releases. */
export const DEFAULT_LINES = ['22', '24', '26'];

/** The path of the `node` binary of `line` (a major version), fetched into npx's cache. */
function nodeBinary(line: string): string {
  const output = execFileSync('npx', ['-y', '-p', `node@${line}`, 'which', 'node'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  const binary = output.trim().split('\n').at(-1) ?? '';
  if (!binary.includes(path.sep)) throw new Error(`npx printed no path for node@${line}`);
  return binary;
}

function runChild(binary: string, script: string, names: string[], out: string): Promise<number | null> {
  const env = { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(binary, [script, '--only', names.join(','), '--nodes', 'none', '--out', out], {
    env,
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/** Runs `names` under each of `lines` in turn (one at a time: they would skew each other's timings). */
export async function runOnLines(lines: string[], script: string, names: string[]): Promise<LineRun[]> {
  const runs: LineRun[] = [];
  for (const line of lines) {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-chat-bench-line-')), 'results.json');
    try {
      const binary = nodeBinary(line);
      process.stdout.write(`== Node ${line} (${binary})\n`);
      const code = await runChild(binary, script, names, out);
      if (code !== 0 || !fs.existsSync(out)) throw new Error(`the run under Node ${line} exited with ${code}`);
      runs.push({ line, results: JSON.parse(fs.readFileSync(out, 'utf8')) as Results });
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      process.stdout.write(`Node ${line}: not run (${message})\n`);
      runs.push({ line, error: message ?? 'unknown failure' });
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  }
  return runs;
}
