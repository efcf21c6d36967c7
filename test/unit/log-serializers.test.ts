/**
 * Secrets in logs: whatever is logged as `err` — an Error with or without a stack, a string, a plain
 * value — is written without throwing, with credential shapes in its text redacted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/log.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-log-err-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('the err serializer', () => {
  it('secrets in logs: an err of any kind is written, its token redacted, and nothing throws', () => {
    const file = path.join(dir, 'log.jsonl');
    const log = createLogger({ level: 'debug', file });
    const stackless = new Error(`refused ${TOKEN}`);
    delete stackless.stack;
    for (const err of [stackless, new Error(`Bearer ${TOKEN}`), `failed with ${TOKEN}`, { code: 7 }, undefined])
      expect(() => log.debug({ err }, 'call failed')).not.toThrow();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text.trim().split('\n')).toHaveLength(5);
    expect(text).toContain('"code":7');
  });
});
