/**
 * Node's module compile cache (Node 22.1 and later): the CLI turns it on before it loads anything
 * else, in Node's own default place, so the code a command loads is compiled once and not at every
 * start. Node 20 has no such cache: there the test is skipped, and every other test runs the CLI without it.
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
  it("is written to Node's default place, and a second start reads it and still works", async () => {
    // Node's default is the system's temporary directory; NODE_COMPILE_CACHE unset, so only the CLI turns it on.
    const env = cleanEnv({ TMPDIR: tmp });
    const first = await runCli(['tools', '--help'], { env });
    expect(first.code).toBe(0);
    const cached = filesUnder(path.join(tmp, 'node-compile-cache'));
    expect(cached.length).toBeGreaterThan(0);
    const second = await runCli(['tools', '--help'], { env });
    expect(second).toEqual(first);
  });

  it('is left off when NODE_DISABLE_COMPILE_CACHE is set', async () => {
    const elsewhere = path.join(tmp, 'disabled');
    fs.mkdirSync(elsewhere);
    const result = await runCli(['--version'], {
      env: cleanEnv({ TMPDIR: elsewhere, NODE_DISABLE_COMPILE_CACHE: '1' }),
    });
    expect(result.code).toBe(0);
    expect(filesUnder(path.join(elsewhere, 'node-compile-cache'))).toEqual([]);
  });
});
