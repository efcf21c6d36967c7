/**
 * What `ask` loads of Node itself to answer over plain http: not TLS (a local Ollama has none), and
 * not undici (its requests go over `node:http`; from Node 22 on, `node:http` imported as an ES
 * module would load undici with it: src/shared/node-http.ts). The built CLI in a child process,
 * against the fake Ollama; a preload records the built-ins it loaded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv, runNode } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const RECORDER = path.join(REPO_ROOT, 'test/fixtures/preload/record-builtins.mjs');

let workDir: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-builtins-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

it('an answer over plain http loads neither TLS nor undici', async () => {
  const config = path.join(workDir, 'mcp_config.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: {} }));
  const record = path.join(workDir, 'builtins.txt');
  ollama.script('Hello there.');
  const env = cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama.url, RECORD_BUILTINS_TO: record });
  const result = await runNode(['--import', RECORDER, CLI, '--config', config, 'ask', 'Say hello'], {
    cwd: workDir,
    env,
  });
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('Hello there.');
  const loaded = fs.readFileSync(record, 'utf8').split('\n');
  // The recorder itself works: the request went over node:http, which it saw load.
  expect(loaded).toContain('http');
  expect(loaded.filter((name) => /tls|https|undici/.test(name))).toEqual([]);
});
