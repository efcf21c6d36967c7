/** The fake Ollama's `/api/pull` on the wire, read with plain `fetch`: the lines Ollama sends, in order. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeOllama, startFakeOllama } from './fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';

let fake: FakeOllama;

afterEach(async () => {
  await fake.close();
});

function post(body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${fake.url}/api/pull`, { method: 'POST', body: JSON.stringify(body), ...(signal ? { signal } : {}) });
}

async function lines(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('fake Ollama /api/pull', () => {
  it('streams the manifest, each layer growing, verify, write and success; the model is then listed', async () => {
    fake = await startFakeOllama({ pullable: { qwen3: { layers: [1_000, 10], steps: 2 } } });
    const response = await post({ model: 'qwen3' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const got = await lines(response);
    expect(got.map((line) => line.status)).toEqual([
      'pulling manifest',
      ...Array.from({ length: 3 }, () => expect.stringMatching(/^pulling [0-9a-f]{12}$/)),
      ...Array.from({ length: 3 }, () => expect.stringMatching(/^pulling [0-9a-f]{12}$/)),
      'verifying sha256 digest',
      'writing manifest',
      'success',
    ]);
    // Go leaves `completed` out while it is 0.
    expect(got[1]).toEqual({
      status: expect.any(String),
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      total: 1_000,
    });
    expect(got.slice(1, 4).map((line) => line.completed)).toEqual([undefined, 500, 1_000]);
    expect(got[1]?.status).toBe(`pulling ${String(got[1]?.digest).slice(7, 19)}`);
    const tags = (await (await fetch(`${fake.url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(tags.models.map((model) => model.name)).toEqual(['llama3.2:latest', 'qwen3:latest']);
  });

  it('a name not in the library: the manifest line, then the error in the stream (HTTP 200)', async () => {
    fake = await startFakeOllama();
    const response = await post({ name: 'nope', stream: true });
    expect(response.status).toBe(200);
    expect(await lines(response)).toEqual([
      { status: 'pulling manifest' },
      { error: 'pull model manifest: file does not exist' },
    ]);
  });

  it('stream false: the last line alone, an error as HTTP 500; no name is HTTP 400', async () => {
    fake = await startFakeOllama({ pullable: { qwen3: {} } });
    const pulled = await post({ model: 'qwen3', stream: false });
    expect([pulled.status, await pulled.json()]).toEqual([200, { status: 'success' }]);
    const unknown = await post({ model: 'nope', stream: false });
    expect([unknown.status, await unknown.json()]).toEqual([
      500,
      { error: 'pull model manifest: file does not exist' },
    ]);
    const nameless = await post({});
    expect(nameless.status).toBe(400);
  });

  it('holds the download where told, and records a client that goes away', async () => {
    fake = await startFakeOllama({ pullable: { qwen3: { hold: { afterLines: 2 } } } });
    const controller = new AbortController();
    const response = await post({ model: 'qwen3' }, controller.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    while (seen.split('\n').length < 3) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const [request] = await fake.waitForRequests(1, '/api/pull');
    await vi.waitFor(() => expect(request?.clientAborted).toBe(true), CONDITION_WAIT);
    const tags = (await (await fetch(`${fake.url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(tags.models.map((model) => model.name)).toEqual(['llama3.2:latest']);
  });
});
