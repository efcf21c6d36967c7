/**
 * Node's module compile cache (Node 22.1 and later): the CLI turns it on before it loads anything
 * else, in the user's own cache directory (`$XDG_CACHE_HOME/mcp-chat/compile-cache`), never in the
 * shared temporary directory Node uses by default, so the code a command loads is compiled once and
 * not at every start (src/cli/compile-cache.ts). Node 20 has no such cache: there the tests of it
 * are skipped.
 */
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const hasCompileCache = typeof Reflect.get(module, 'enableCompileCache') === 'function';

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

const WITH_CACHE_LOG = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };

describe.skipIf(!hasCompileCache)("the CLI's compile cache", () => {
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
