/**
 * What the screen keeps for a whole session shares V8's hidden classes: tool calls read from a
 * model's native calls, and history items (`addItems`). An object that ends up with a hidden class
 * of its own costs about 180 bytes more for as long as it is kept. Checked with V8's own
 * `%HaveSameMap`, in a child Node started with --allow-natives-syntax, on the modules bundled as
 * the build bundles them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/server-configs.js';

let directory: string;
beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hidden-classes-'));
  await build({
    stdin: {
      contents: [
        "export { interpretReply } from './src/chat/reply-interpreter.ts';",
        "export { addItems, initialChatState } from './src/ui/chat-state.ts';",
      ].join('\n'),
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: path.join(directory, 'modules.mjs'),
    logLevel: 'silent',
  });
});
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** Runs `body` (which may use `%HaveSameMap`) with the bundle's exports in scope; returns what it prints. */
function natives(body: string): string {
  const script = path.join(directory, `check-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(script, `import * as m from './modules.mjs';\n${body}\n`);
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', script], { cwd: REPO_ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('hidden classes of what a session keeps', () => {
  it('every tool call read from native calls shares one', () => {
    const shared = natives(`
      const tools = [{ server: 'calculator', name: 'evaluate', description: '', inputSchema: { type: 'object' } }];
      const calls = Array.from({ length: 50 }, (_, n) => m.interpretReply(
        { nativeCalls: [{ name: 'calculator__evaluate', arguments: { expression: String(n) } }], text: '', truncated: false },
        tools,
      ).calls[0].call);
      console.log(calls.filter((call) => %HaveSameMap(call, calls[0])).length);
    `);
    expect(shared).toBe('50');
  });

  it('every history item of a kind shares one, whatever came before it', () => {
    const shared = natives(`
      let state = m.initialChatState({ model: 'm', configSource: 'c' }, []);
      const call = { server: 's', tool: 't', arguments: {} };
      const result = { isError: false, forModel: 'ok', durationMs: 1 };
      for (let n = 0; n < 50; n++)
        state = m.addItems(state, { type: 'user', text: 'q' + n }, { type: 'tool', call, result }, { type: 'assistant', text: 'a' + n });
      const ofKind = (kind) => state.items.filter((item) => item.type === kind);
      const same = (items) => items.filter((item) => %HaveSameMap(item, items[0])).length;
      console.log([same(ofKind('user')), same(ofKind('tool')), same(ofKind('assistant'))].join(' '));
    `);
    expect(shared).toBe('50 50 50');
  });
});
