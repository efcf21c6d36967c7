/**
 * An Ollama behind HTTPS (a remote host, a TLS proxy): the built `mcp-chat ask` against the
 * fake Ollama serving a certificate made for the test. Trusted through Node's
 * `NODE_EXTRA_CA_CERTS`, the turn streams and calls a tool as over HTTP; untrusted, it fails in
 * one line naming the URL and the certificate problem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { selfSignedCertificate, type Certificate } from '../helpers/spawn-server.js';

let workDir: string;
let certificate: Certificate;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ollama-https-')));
  certificate = selfSignedCertificate(workDir, 'ollama');
  const tls = { cert: fs.readFileSync(certificate.cert, 'utf8'), key: fs.readFileSync(certificate.key, 'utf8') };
  ollama = await startFakeOllama({ models: [{ name: 'qwen3:8b', capabilities: ['completion', 'tools'] }], tls });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function ask(prompt: string, env: Record<string, string> = {}) {
  return runCli(['ask', '--model', 'qwen3:8b', prompt], {
    cwd: workDir,
    env: cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
      ...env,
    }),
  });
}

describe('an Ollama over HTTPS', () => {
  it('with its certificate trusted: the reply streams and the tool call goes through', async () => {
    expect(ollama.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    ollama.script({ toolCalls: [{ name: 'calculator__evaluate', arguments: { expression: '6*7' } }] }, 'It is 42.');
    const result = await ask('What is 6*7?', { NODE_EXTRA_CA_CERTS: certificate.cert });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('It is 42.');
    const toolMessage = ollama.chatRequests[1]?.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toContain('42');
  });

  it('with an untrusted certificate: exits 1 naming the URL and the certificate problem, no stack', async () => {
    const result = await ask('hello');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Ollama is not reachable at ${ollama.url} (DEPTH_ZERO_SELF_SIGNED_CERT)`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
