/**
 * `mcp-chat mcp-server --http`: the built CLI serving Streamable HTTP on 127.0.0.1 to a real SDK
 * client, and refusing whoever does not bring its bearer token or comes by another host name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { mcpServerEnv } from '../helpers/mcp-server-client.js';
import { CLI } from '../helpers/run-cli.js';

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) \((.*)\)\n/;
const PRINTED_TOKEN = /token: ([A-Za-z0-9_-]{32})$/;

let workDir: string;
let ollama: FakeOllama;
let child: ChildProcess | undefined;

beforeEach(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-server-http-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** Starts the server on a free port; resolves with its URL and what it said of the token once it listens. */
function startHttpServer(extra: string[] = []): Promise<{ url: string; note: string }> {
  const started = spawn(process.execPath, [CLI, 'mcp-server', '--http', '0', ...extra], {
    cwd: workDir,
    env: mcpServerEnv(ollama.url, workDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = started;
  return new Promise((resolve, reject) => {
    let stderr = '';
    started.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = LISTENING.exec(stderr);
      if (match?.[1] && match[2]) resolve({ url: match[1], note: match[2] });
    });
    started.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mcp-server-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A raw initialize POST, to see the status a refused request gets. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('mcp-chat mcp-server --http', () => {
  it('serves the chat tool to a client that sends the printed bearer token', async () => {
    ollama.script('Hello from afar.');
    const { url, note } = await startHttpServer();
    const token = PRINTED_TOKEN.exec(note)?.[1] ?? '';
    const client = await connect(url, { Authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['chat']);
    const result = await client.callTool({ name: 'chat', arguments: { prompt: 'Hi' } });
    expect(result.structuredContent).toMatchObject({ answer: 'Hello from afar.' });
    await client.close();
  });

  it('refuses a caller without the token, or with a wrong one (401), so no local process drives the model', async () => {
    const { url, note } = await startHttpServer();
    const token = PRINTED_TOKEN.exec(note)?.[1] ?? '';
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { Authorization: `Bearer ${token}x` })).toBe(401);
    await expect(connect(url, {})).rejects.toThrow(/401|Unauthorized/);
    expect(await post(url, { Authorization: `Bearer ${token}` })).toBe(200);
    expect(ollama.chatRequests).toHaveLength(0);
  });

  it('refuses a request by another host name even with the token (DNS rebinding)', async () => {
    const { url, note } = await startHttpServer();
    const token = PRINTED_TOKEN.exec(note)?.[1] ?? '';
    const port = new URL(url).port;
    expect(await post(url, { Authorization: `Bearer ${token}`, Host: `attacker.example:${port}` })).toBe(403);
  });

  it('takes the token given with --token, and does not print it', async () => {
    const given = 'a-token-of-the-callers-choosing';
    const { url, note } = await startHttpServer(['--token', given]);
    expect(note).not.toContain(given);
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { Authorization: `Bearer ${given}` })).toBe(200);
  });
});
