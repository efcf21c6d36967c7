/**
 * The memory reducer kept from collecting in the chat (src/cli/memory-reducer.ts), seen in V8's own
 * trace of the reducer (`--trace-memory-reducer`) in child processes made to go quiet as a chat does
 * after a reply: a heap of some megabytes, a full collection, then nothing but a timer. Untuned, the
 * reducer looks again and again until it finds the process quiet, then collects; tuned, it stops at
 * its first look.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
/** V8 12 (Node 22) is the first with the flag the tuning sets, and with the reducer's trace. */
const HAS_GC_COUNT = V8_MAJOR >= 12;
/** V8 14 (Node 26) lets the reducer's wait after a full collection be shortened, to about a second. */
const REDUCER_DELAY_FLAG = V8_MAJOR >= 14 ? ['--memory-reducer-delay-ms=200'] : [];

/** The built module, as the chat loads it. */
const BUILT = JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/src/cli/memory-reducer.js')).href);

/** What the trace prints at each of the reducer's looks, at each it takes again later, and when it starts a collection. */
const LOOKED = /Memory reducer: (low|high) alloc/;
const LOOKS_AGAIN = 'Memory reducer: waiting for';
const STARTED_COLLECTING = 'Memory reducer: started GC';

/**
 * Script text: `tune`, then a heap the reducer finds worth shrinking (an old generation of some
 * megabytes and objects of Node's own, compiled scripts), a full collection, and a quiet process
 * kept alive by a timer until anything arrives on its stdin. It prints "reducer collected" at the
 * reducer's collection (a full one that collects all external memory), and "quiet" on leaving.
 */
const quietAfterWork = (tune: string): string =>
  `${tune}
  import { constants, PerformanceObserver } from 'node:perf_hooks';
  import vm from 'node:vm';
  new PerformanceObserver((list) => {
    for (const { detail } of list.getEntries())
      if (detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR && detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY)
        console.log('reducer collected');
  }).observe({ entryTypes: ['gc'] });
  const kept = [];
  for (let n = 0; n < 300_000; n++) kept.push({ n, text: 'x' + n });
  for (let n = 0; n < 2_000; n++) new vm.Script(String(n));
  globalThis.gc();
  const alive = setInterval(() => kept.length, 50);
  process.stdin.once('data', () => { clearInterval(alive); console.log('quiet'); process.exit(0); });`;

interface QuietRun {
  /** The child's whole stdout: V8's trace and the script's own lines. */
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Four times what the slowest line's control takes: a child that never shows `until` is asked to leave then. */
const GIVE_UP_MS = 40_000;

/**
 * Runs `quietAfterWork(tune)` with the reducer's trace and its first wait shortened, until its
 * stdout shows `until` (or GIVE_UP_MS have passed); then asks it to leave (through its stdin, so
 * that whatever V8 printed in the same step is printed first) and returns all it wrote.
 */
function runQuiet(tune: string, until: RegExp): Promise<QuietRun> {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--trace-memory-reducer',
      '--gc-memory-reducer-start-delay-ms=200',
      ...REDUCER_DELAY_FLAG,
      '--input-type=module',
      '-e',
      quietAfterWork(tune),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  const askToLeave = (): void => {
    if (!child.stdin.writableEnded) child.stdin.end('leave\n');
  };
  const giveUp = setTimeout(askToLeave, GIVE_UP_MS);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (until.test(stdout)) askToLeave();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ stdout, stderr, code });
    }),
  );
}

const expectLeftQuietly = (run: QuietRun): void =>
  expect({ code: run.code, stderr: run.stderr, last: run.stdout.trimEnd().split('\n').at(-1) }).toEqual({
    code: 0,
    stderr: '',
    last: 'quiet',
  });

/** Script text: the built tuning called for `running` (the child itself when omitted), its answer printed. */
const tuneAt = (running?: string): string =>
  `console.log('set:', (await import(${BUILT})).keepMemoryReducerFromCollecting(${running ?? ''}));`;

describe('keepMemoryReducerFromCollecting', () => {
  // The control takes about 2 s on Node 26, 9 s on Node 22 and 24 (8 s between the reducer's looks there).
  it.skipIf(!HAS_GC_COUNT)(
    'has the reducer stop at its first look; asked too late, it leaves the reducer to collect',
    async () => {
      const [tooLate, tuned] = await Promise.all([
        runQuiet(tuneAt('{ v8: process.versions.v8, uptimeSeconds: 6 }'), /reducer collected/),
        runQuiet(tuneAt(), LOOKED),
      ]);
      // The control: not set, the reducer collects once it finds the process quiet.
      expectLeftQuietly(tooLate);
      expect(tooLate.stdout).toContain('set: false');
      expect(tooLate.stdout).toContain(STARTED_COLLECTING);
      expectLeftQuietly(tuned);
      expect(tuned.stdout).toContain('set: true');
      expect(tuned.stdout).toMatch(LOOKED);
      expect(tuned.stdout).not.toContain(LOOKS_AGAIN);
      expect(tuned.stdout).not.toContain(STARTED_COLLECTING);
      expect(tuned.stdout).not.toContain('reducer collected');
    },
    60_000,
  );

  it("sets nothing on Node 20's V8, which lacks the flag: nothing is printed and the process exits", async () => {
    const run = await runNode([
      '--input-type=module',
      '-e',
      `${tuneAt("{ v8: '11.3.244.8', uptimeSeconds: 0 }")} ${tuneAt()}`,
    ]);
    expect(run).toMatchObject({ code: 0, stdout: `set: false\nset: ${HAS_GC_COUNT}\n`, stderr: '' });
  });
});
