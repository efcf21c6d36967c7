/**
 * Node's module compile cache (Node 22.1 and later): the CLI turns it on before it loads anything
 * else, in the user's own cache directory (`$XDG_CACHE_HOME/mcp-chat/compile-cache`), never in the
 * shared temporary directory Node uses by default, so the code a command loads is compiled once and
 * not at every start; its start module is compiled whole into it (src/cli/compile-cache.ts). Node 20
 * has no such cache: there the tests of it are skipped.
 */
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanEnv, runCli, runNode } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const hasCompileCache = typeof Reflect.get(module, 'enableCompileCache') === 'function';

const FLAG_REPORTER = path.join(REPO_ROOT, 'test/fixtures/report-flag-changes.mjs');
const BUILTINS_REPORTER = path.join(REPO_ROOT, 'test/fixtures/report-builtins.mjs');

let tmp: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-compile-cache-')));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir`, however deep Node lays its cache out. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

/** One step of a run, in order: V8's flags changed (with the public built-in modules loaded by then), or a file compiled. */
type Step = { kind: 'flags'; flags: string; builtins: string[] } | { kind: 'compiled'; file: string };

/** A run's stderr (with NODE_DEBUG_NATIVE=COMPILE_CACHE and the flag reporter) as its steps. */
function steps(stderr: string): Step[] {
  return stderr.split('\n').flatMap((line): Step[] => {
    const flags = /^\[v8 flags\] (\S+) (\[.*\])$/.exec(line);
    if (flags?.[1] && flags[2]) return [{ kind: 'flags', flags: flags[1], builtins: JSON.parse(flags[2]) as string[] }];
    const compiled = /^\[compile cache\] reading cache from \S+ for ESM (file:\S+?\.js)\.\.\./.exec(line);
    return compiled?.[1] ? [{ kind: 'compiled', file: path.basename(fileURLToPath(compiled[1])) }] : [];
  });
}

/** The run's flag changes, in order. */
function flagChanges(order: Step[]): Array<Extract<Step, { kind: 'flags' }>> {
  return order.filter((step): step is Extract<Step, { kind: 'flags' }> => step.kind === 'flags');
}

const WITH_CACHE_LOG = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };

it('changes no V8 flag where the cache is off (Node 20, or NODE_DISABLE_COMPILE_CACHE)', async () => {
  const result = await runNode(['--import', FLAG_REPORTER, CLI, '--version'], {
    env: cleanEnv({ NODE_DISABLE_COMPILE_CACHE: '1' }),
  });
  expect(result.code).toBe(0);
  expect(flagChanges(steps(result.stderr))).toEqual([]);
});

it('loads no node:v8 where the cache is off: only the cache needs it, and it costs a start 3 ms', async () => {
  const out = path.join(tmp, 'builtins-without-cache.txt');
  const result = await runNode(['--import', BUILTINS_REPORTER, CLI, '--version'], {
    env: cleanEnv({ NODE_DISABLE_COMPILE_CACHE: '1', MCP_TEST_BUILTINS_OUT: out }),
  });
  expect(result.code).toBe(0);
  const loaded = fs.readFileSync(out, 'utf8').split('\n');
  expect(loaded).toContain('fs');
  expect(loaded).not.toContain('v8');
});

describe.skipIf(!hasCompileCache)("the CLI's compile cache", () => {
  it('has the start module compiled whole, and no other file, once the built-in modules it loads are loaded', async () => {
    const env = cleanEnv({ XDG_CACHE_HOME: path.join(tmp, 'whole'), ...WITH_CACHE_LOG });
    // The first run writes the cache, the second reads it: both compile the same way.
    for (const run of ['writes', 'reads']) {
      const result = await runNode(['--import', FLAG_REPORTER, CLI, '--version'], { env });
      expect(result.code, run).toBe(0);
      const order = steps(result.stderr);
      expect(flagChanges(order).map((change) => change.flags)).toEqual(['--no-lazy', '--lazy']);
      const [whole, lazy] = flagChanges(order);
      const compiledWhole = order.slice(order.indexOf(whole!) + 1, order.indexOf(lazy!));
      expect(compiledWhole).toEqual([{ kind: 'compiled', file: expect.stringMatching(/^main-\w+\.js$/) }]);
      // One loaded while the flag is off would be compiled from its source, whole, not from Node's own cache.
      expect(lazy!.builtins.filter((name) => !whole!.builtins.includes(name))).toEqual([]);
      if (run === 'reads') expect(result.stderr).toMatch(/cache for (?:ESM )?\S+\/main-\w+\.js was accepted/);
    }
  });

  it("takes each file's cache as another command made it, whatever the order of commands", async () => {
    const noServers = path.join(tmp, 'no-servers.json');
    fs.writeFileSync(noServers, JSON.stringify({ ollama: { model: 'llama3.2' }, mcpServers: {} }));
    const env = cleanEnv({ XDG_CACHE_HOME: path.join(tmp, 'commands'), ...WITH_CACHE_LOG });
    // The start module alone; the session store; the host, the SDK and their chunks; the chat's code
    // with the chunks it shares with `tools` (without a terminal it loads, then says it needs one).
    const commands = [
      { args: ['--version'], code: 0 },
      { args: ['sessions'], code: 0 },
      { args: ['--config', noServers, 'tools', '--json'], code: 0 },
      { args: ['--config', noServers], code: 2, says: 'the chat needs an interactive terminal' },
    ];
    const run = (args: string[]) => runCli(args, { env, stdin: '' });
    for (const { args } of commands) await run(args);
    for (const { args, code, says } of [...commands].reverse()) {
      const result = await run(args);
      expect(result.stderr).toMatch(/was accepted/);
      // A file compiled under other flags than its cache was made with is refused and compiled again.
      expect(result.stderr).not.toMatch(/was rejected/);
      expect(result.code).toBe(code);
      if (says) expect(result.stderr).toContain(says);
    }
  });

  it("is written to the user's own cache directory, not the shared temporary one, and a second start reads it and still works", async () => {
    // Security: Node's default is `node-compile-cache` in the system's temporary directory, which another user can create first.
    const cacheHome = path.join(tmp, 'cache-home');
    const env = cleanEnv({ TMPDIR: tmp, XDG_CACHE_HOME: cacheHome });
    const first = await runCli(['tools', '--help'], { env });
    expect(first.code).toBe(0);
    expect(filesUnder(path.join(cacheHome, 'mcp-chat', 'compile-cache')).length).toBeGreaterThan(0);
    expect(filesUnder(path.join(tmp, 'node-compile-cache'))).toEqual([]);
    const second = await runCli(['tools', '--help'], { env });
    expect(second).toEqual(first);
  });

  it('goes where NODE_COMPILE_CACHE says, when it is set', async () => {
    const chosen = path.join(tmp, 'chosen');
    const cacheHome = path.join(tmp, 'unused-home');
    const result = await runCli(['--version'], {
      env: cleanEnv({ XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: chosen }),
    });
    expect(result.code).toBe(0);
    expect(filesUnder(chosen).length).toBeGreaterThan(0);
    expect(filesUnder(cacheHome)).toEqual([]);
  });

  it('is left off when NODE_DISABLE_COMPILE_CACHE is set', async () => {
    const elsewhere = path.join(tmp, 'disabled');
    const result = await runCli(['--version'], {
      env: cleanEnv({ TMPDIR: tmp, XDG_CACHE_HOME: elsewhere, NODE_DISABLE_COMPILE_CACHE: '1' }),
    });
    expect(result.code).toBe(0);
    expect(filesUnder(elsewhere)).toEqual([]);
  });
});
