/**
 * A fake Ollama of one test's own, closed when that test ends: scenarios that each have one share
 * no script and no recorded requests, so they can run at the same time (`describe.concurrent`).
 */
import type { TestContext } from 'vitest';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../fakes/fake-ollama.js';

export async function ownFakeOllama(test: TestContext, options?: FakeOllamaOptions): Promise<FakeOllama> {
  const ollama = await startFakeOllama(options);
  test.onTestFinished(() => ollama.close());
  return ollama;
}
