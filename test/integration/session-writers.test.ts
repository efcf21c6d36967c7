/**
 * Two processes saving one session at once, through the built `SessionStore` (last writer wins,
 * whole-file atomic rename): a reader in a third process never sees a torn file, and the file
 * left is one writer's last save, whole.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/state/session-store.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const STORE_MODULE = path.join(REPO_ROOT, 'dist/src/state/session-store.js');
const SAVES = 200;

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-session-writers-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A process saving the session `SAVES` times, each save whole and of a different size (up to ~1 MB). */
function writer(id: string): Promise<number | null> {
  const script = `
    const { SessionStore } = await import(${JSON.stringify(STORE_MODULE)});
    const store = new SessionStore(${JSON.stringify(dir)});
    for (let i = 0; i < ${SAVES}; i++) {
      const messages = Array.from({ length: 1 + (i % 9) * 400 }, (_, n) => ({ role: 'user', content: ${JSON.stringify(id)}.repeat(200) + n }));
      store.save({ format: 1, name: 'shared', model: 'm', createdAt: 'c', updatedAt: 'u', turns: i, title: ${JSON.stringify(id)}, messages, screen: [] });
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
}

describe('two processes writing one session', () => {
  it('never tear it: every read while they write is one whole save, and the last writer wins', async () => {
    const store = new SessionStore(dir);
    const writers = Promise.all([writer('A'), writer('B')]);
    let done = false;
    void writers.finally(() => (done = true));
    let reads = 0;
    while (!done) {
      if (store.exists('shared')) {
        const loaded = store.load('shared');
        expect(['A', 'B']).toContain(loaded.title);
        expect(loaded.messages.every((message) => message.content.startsWith(loaded.title))).toBe(true);
        reads += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await writers).toEqual([0, 0]);
    expect(reads).toBeGreaterThan(0);
    expect(store.load('shared').turns).toBe(SAVES - 1);
    // No temporary file is left behind by either writer.
    expect(fs.readdirSync(dir)).toEqual(['shared.json']);
  }, 60_000);
});
