/**
 * The compiler tuning the chat applies once it has started (src/cli/compiler-tuning.ts), seen in
 * V8's own trace of what it optimises (`--trace-opt`): once tuned, a running process compiles its
 * hot code with Turbofan alone, never with Maglev.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode, type CliResult } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

/** Node 24 is the first line whose V8 runs Maglev by default. */
const MAGLEV_BY_DEFAULT = Number(process.versions.node.split('.')[0]) >= 24;

/** Script text: a function `name`, called often enough for V8 to optimise it within the loop. */
const hotLoop = (name: string): string =>
  `function ${name}(x) { return x * 2 + 1; } let ${name}Sum = 0; ` +
  `for (let round = 0; round < 200; round++) for (let i = 0; i < 20000; i++) ${name}Sum += ${name}(i);`;

/** The built module, as the chat loads it. */
const BUILT = JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/src/cli/compiler-tuning.js')).href);

/** Runs an ES module script in a child process under V8's optimisation trace. */
function traced(script: string): Promise<CliResult> {
  return runNode(['--trace-opt', '--input-type=module', '-e', script], { timeoutMs: 30_000 });
}

/** The tiers V8 compiled the function `name` for, in order: `MAGLEV`, `TURBOFAN`, `TURBOFAN_JS`… */
const tiersOf = (trace: string, name: string): string[] =>
  [...trace.matchAll(new RegExp(`compiling method \\S+ <JSFunction ${name} [^>]*> \\(target (\\w+)\\)`, 'g'))].map(
    (match) => match[1] ?? '',
  );

const expectCleanExit = (run: CliResult): void =>
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });

describe('tuneCompilerForLongSession', () => {
  it("has V8 optimise hot code with Turbofan, not Maglev, where Maglev is this Node's default", async () => {
    const tune = `const { tuneCompilerForLongSession } = await import(${BUILT}); tuneCompilerForLongSession();`;
    const [untuned, tuned] = await Promise.all([traced(hotLoop('hot')), traced(`${tune} ${hotLoop('hot')}`)]);
    expectCleanExit(untuned);
    expectCleanExit(tuned);
    // The control: untuned, this Node compiles `hot` with Maglev first where that is its default.
    expect(tiersOf(untuned.stdout, 'hot').includes('MAGLEV')).toBe(MAGLEV_BY_DEFAULT);
    const tiers = tiersOf(tuned.stdout, 'hot');
    expect(tiers).not.toContain('MAGLEV');
    expect(tiers.some((tier) => tier.startsWith('TURBOFAN'))).toBe(true);
  });
});

describe('tuneCompilerOnceStarted', () => {
  it('leaves the defaults until the chat has started, then tunes at once', async () => {
    const run = await traced(
      `const { tuneCompilerOnceStarted } = await import(${BUILT}); ` +
        'let serversUp; tuneCompilerOnceStarted(new Promise((resolve) => (serversUp = resolve))); ' +
        `${hotLoop('beforeStart')} serversUp(); await null; ${hotLoop('afterStart')}`,
    );
    expectCleanExit(run);
    expect(tiersOf(run.stdout, 'beforeStart').includes('MAGLEV')).toBe(MAGLEV_BY_DEFAULT);
    expect(tiersOf(run.stdout, 'afterStart')).not.toContain('MAGLEV');
    expect(tiersOf(run.stdout, 'afterStart').some((tier) => tier.startsWith('TURBOFAN'))).toBe(true);
  });
});
