/**
 * search_papers tells a client that asked for progress what it is waiting for (arXiv's rate
 * limit, a retry's backoff, the request itself), through the built server process over stdio
 * (`npm run build` first) against the fake arXiv; its default 3 s spacing is what is waited out.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeArxiv, feedResponse } from '../fakes/fake-arxiv.js';
import { connectBuiltServer } from '../helpers/stdio-client.js';

/** arXiv's spacing (3 s) plus up to 1 s of jitter, the retry, and room for a busy machine. */
const SLOW_TEST_MS = 30_000;

let tmp: string;
let fake: FakeArxiv;
let client: Client;
/** Errors the client reports, e.g. a progress notification for a call that asked for none. */
let clientErrors: Error[];

beforeEach(async () => {
  tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'research-progress-')));
  fake = await FakeArxiv.start();
  client = await connectBuiltServer('research', [], 'research-progress-test', {
    env: { ARXIV_API_URL: fake.url, PAPERS_DIR: path.join(tmp, 'papers') },
  });
  clientErrors = [];
  client.onerror = (error) => clientErrors.push(error);
});

afterEach(async () => {
  await client.close();
  await fake.close();
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** A search_papers call that records every progress notification it receives. */
async function searchWithProgress(topic: string): Promise<{ result: CallToolResult; progress: Progress[] }> {
  const progress: Progress[] = [];
  const result = (await client.callTool({ name: 'search_papers', arguments: { topic } }, undefined, {
    onprogress: (update) => progress.push(update),
  })) as CallToolResult;
  return { result, progress };
}

function expectIncreasing(progress: readonly Progress[]): void {
  const numbers = progress.map((update) => update.progress);
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  expect(new Set(numbers).size).toBe(numbers.length);
}

describe('search_papers progress', () => {
  it(
    "a search right after another waits for arXiv's rate limit and says so, counting down; one without a token hears nothing",
    async () => {
      fake.enqueue(feedResponse('quantum-criticality.xml'), feedResponse('quantum-criticality.xml'));
      // No progress token: the first search sends no progress (a stray one would be an "unknown token" error here).
      const first = (await client.callTool({ name: 'search_papers', arguments: { topic: 'first' } })) as CallToolResult;
      expect(first.isError).toBeFalsy();
      const { result, progress } = await searchWithProgress('second');
      expect(result.isError).toBeFalsy();
      expect(fake.gaps()[0]).toBeGreaterThanOrEqual(3_000);
      const messages = progress.map((update) => update.message ?? '');
      const waits = messages.filter((message) => /^waiting \d+\.\d s for arXiv's rate limit$/.test(message));
      // Told at once, then again each second of the 3–4 s wait.
      expect(waits.length, messages.join('\n')).toBeGreaterThanOrEqual(3);
      const seconds = waits.map((message) => Number(/\d+\.\d/.exec(message)?.[0]));
      expect(seconds[0]).toBeGreaterThan(2);
      expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
      expect(messages.at(-1)).toBe('asking arXiv');
      expectIncreasing(progress);
      expect(clientErrors).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    'a retry after arXiv fails is announced with its number, its wait and the failure, then the new attempt',
    async () => {
      fake.enqueue({ status: 503, body: 'busy' }, { ...feedResponse('quantum-criticality.xml'), delayMs: 1_500 });
      const { result, progress } = await searchWithProgress('quantum criticality');
      expect(result.isError).toBeFalsy();
      const messages = progress.map((update) => update.message ?? '');
      expect(messages[0]).toBe('asking arXiv');
      expect(messages).toContainEqual(
        expect.stringMatching(/^retry 1 of 2 in \d+\.\d s \(arXiv is unavailable \(HTTP 503\)\)$/),
      );
      expect(messages).toContain('asking arXiv (attempt 2 of 3)');
      // The slow second answer is reported while it is awaited.
      expect(messages).toContain('asking arXiv (attempt 2 of 3), 1 s so far');
      expectIncreasing(progress);
      expect(clientErrors).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});
