/**
 * Node's module compile cache (Node 22.1 and later): the CLI turns it on before it loads anything
 * else, in the user's own cache directory (`$XDG_CACHE_HOME/mcp-chat/compile-cache`), never in the
 * shared temporary directory Node uses by default, so the code a command loads is compiled once and
 * not at every start. Node 20 has no such cache: there the test is skipped.
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

describe.skipIf(!hasCompileCache)("the CLI's compile cache", () => {
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
