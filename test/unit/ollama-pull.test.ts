/**
 * `OllamaClient.pull` against the fake Ollama over HTTP: the NDJSON of `/api/pull` folded into
 * progress across layers, success, an unknown name, a cancelled pull, a connection dropped mid-pull
 * and an Ollama that is not there.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullProgress } from '../../src/vocabulary/model-pull.js';
import { createOllamaClient, type OllamaClient } from '../../src/ollama/client.js';
import { OllamaError } from '../../src/shared/errors.js';
import { silentLogger } from '../../src/shared/log.js';
import { type FakeOllama, type FakePullSpec, startFakeOllama } from '../fakes/fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let fake: FakeOllama;

afterEach(async () => {
  await fake.close();
});

async function start(pullable: Record<string, FakePullSpec> = {}): Promise<OllamaClient> {
  fake = await startFakeOllama({ pullable });
  return createOllamaClient(
    { baseUrl: fake.url, model: 'llama3.2', timeoutMs: 10_000, numCtx: 8192, toolMode: 'auto', options: {} },
    silentLogger,
  );
}

async function pullAll(llm: OllamaClient, model: string, signal?: AbortSignal): Promise<PullProgress[]> {
  const seen: PullProgress[] = [];
  for await (const progress of llm.pull(model, signal)) seen.push(progress);
  return seen;
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.unreachable('the pull succeeded'),
    (error: unknown) => error,
  );
}

describe('OllamaClient.pull', () => {
  it('sums the layers as they are reported and ends with success', async () => {
    const llm = await start({ qwen3: { layers: [4_000, 300, 20], steps: 4 } });
    const seen = await pullAll(llm, 'qwen3');
    expect(seen[0]).toEqual({ status: 'pulling manifest', total: 0, completed: 0, transferred: 0 });
    // The total grows as each layer starts: Ollama tells a layer's size only then.
    const totals = [...new Set(seen.map((progress) => progress.total))];
    expect(totals).toEqual([0, 4_000, 4_300, 4_320]);
    const completed = seen.map((progress) => progress.completed);
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
    expect(seen.map((progress) => progress.status).slice(-3)).toEqual([
      'verifying sha256 digest',
      'writing manifest',
      'success',
    ]);
    expect(seen[seen.length - 1]).toEqual({ status: 'success', total: 4_320, completed: 4_320, transferred: 4_320 });
    const [request] = await fake.waitForRequests(1, '/api/pull');
    expect(request?.body).toMatchObject({ name: 'qwen3', stream: true });
  });

  it('counts what an earlier pull left on disk as completed, not as transferred', async () => {
    const llm = await start({ qwen3: { layers: [4_000], alreadyHave: 3_000 } });
    const last = (await pullAll(llm, 'qwen3')).at(-1);
    expect(last).toEqual({ status: 'success', total: 4_000, completed: 4_000, transferred: 1_000 });
  });

  it('after the pull the model is listed', async () => {
    const llm = await start({ qwen3: {} });
    expect(await llm.listModels()).toEqual(['llama3.2:latest']);
    await pullAll(llm, 'qwen3');
    expect(await llm.listModels()).toEqual(['llama3.2:latest', 'qwen3:latest']);
  });

  it('a name the library does not have is one clear failure', async () => {
    const llm = await start();
    const error = await failureOf(pullAll(llm, 'qwen-nonexistent'));
    expect(error).toBeInstanceOf(OllamaError);
    expect(error).toMatchObject({
      message: "no model named 'qwen-nonexistent' in the Ollama library",
      hint: 'Check the name at https://ollama.com/library',
    });
  });

  it('cancelling aborts the request: the generator throws an AbortError and Ollama sees the client go', async () => {
    const llm = await start({ qwen3: { hold: { afterLines: 3 } } });
    const controller = new AbortController();
    const seen: PullProgress[] = [];
    const pulling = (async () => {
      for await (const progress of llm.pull('qwen3', controller.signal)) {
        seen.push(progress);
        if (seen.length === 3) controller.abort();
      }
    })();
    const error = await failureOf(pulling);
    expect(error).toMatchObject({ name: 'AbortError' });
    const [request] = await fake.waitForRequests(1, '/api/pull');
    await vi.waitFor(() => expect(request?.clientAborted).toBe(true), CONDITION_WAIT);
    expect(await llm.listModels()).toEqual(['llama3.2:latest']);
  });

  it('a consumer that stops early releases the request', async () => {
    const llm = await start({ qwen3: { hold: { afterLines: 2 } } });
    for await (const progress of llm.pull('qwen3')) if (progress.status === 'pulling manifest') break;
    const [request] = await fake.waitForRequests(1, '/api/pull');
    await vi.waitFor(() => expect(request?.clientAborted).toBe(true), CONDITION_WAIT);
  });

  it('lets the stream go at success: a response held open after its last line is closed by the client', async () => {
    // manifest, the layer at 0 and at its end, verifying, writing, success: six lines, then held open.
    const llm = await start({ qwen3: { layers: [4_000], steps: 1, hold: { afterLines: 6 } } });
    const seen = await pullAll(llm, 'qwen3');
    expect(seen.at(-1)?.status).toBe('success');
    const [request] = await fake.waitForRequests(1, '/api/pull');
    await vi.waitFor(() => expect(request?.clientAborted).toBe(true), CONDITION_WAIT);
    expect(await llm.listModels()).toContain('qwen3:latest');
  });

  it('a connection dropped mid-pull fails saying so, with the hint that the pull resumes', async () => {
    const llm = await start({ qwen3: { layers: [4_000, 300], dropAfterLines: 3 } });
    const seen: PullProgress[] = [];
    const error = await failureOf(
      (async () => {
        for await (const progress of llm.pull('qwen3')) seen.push(progress);
      })(),
    );
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(OllamaError);
    expect(error).toMatchObject({
      kind: 'request-failed',
      message: `pulling qwen3 through ${fake.url} failed: the connection was lost`,
    });
    expect((error as OllamaError).hint).toMatch(/resume/i);
  });

  it('an Ollama that is not there is the usual unreachable failure', async () => {
    const llm = await start();
    await fake.close();
    const error = await failureOf(pullAll(llm, 'qwen3'));
    expect(error).toMatchObject({ kind: 'unreachable' });
    expect(String((error as Error).message)).toContain('Ollama is not reachable at');
  });
});
