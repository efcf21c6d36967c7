/**
 * `mcp-chat mcp-server --http`: the built CLI serving Streamable HTTP on 127.0.0.1 to a real SDK
 * client, and refusing whoever does not bring its bearer token or comes by another host name.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { mcpServerEnv, startHttpMcpServer, type HttpMcpServer } from '../helpers/mcp-server-client.js';
import { runCli } from '../helpers/run-cli.js';

const PRINTED_TOKEN = /token: ([A-Za-z0-9_-]{32})$/;

let workDir: string;
let ollama: FakeOllama;
let server: HttpMcpServer | undefined;

beforeEach(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-server-http-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function startHttpServer(extra: string[] = []): Promise<HttpMcpServer> {
  server = await startHttpMcpServer(ollama.url, workDir, extra);
  return server;
}

async function connect(url: string, headers: Record<string, string>, accept = false): Promise<Client> {
  const capabilities = accept ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'mcp-server-http-test', version: '1.0.0' }, { capabilities });
  if (accept) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: {} }));
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

  it("asks an approval of the caller over HTTP too, by elicitation on the call's own stream", async () => {
    const write = {
      action: 'use_tool',
      server: 'file',
      tool: 'write_file',
      arguments: { path: 'out.txt', content: 'hi' },
    };
    ollama.script(JSON.stringify(write), 'Written.');
    const { url, note } = await startHttpServer();
    const client = await connect(url, { Authorization: `Bearer ${PRINTED_TOKEN.exec(note)?.[1] ?? ''}` }, true);
    const result = await client.callTool({ name: 'chat', arguments: { prompt: 'Write hi to out.txt' } });
    expect(result.structuredContent).toMatchObject({
      answer: 'Written.',
      toolCalls: [{ tool: 'write_file', isError: false }],
    });
    expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hi');
    await client.close();
  });

  it('no token: a caller without the token, or with a wrong one, is refused (401) and never reaches the model', async () => {
    const { url, note } = await startHttpServer();
    const token = PRINTED_TOKEN.exec(note)?.[1] ?? '';
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { Authorization: `Bearer ${token}x` })).toBe(401);
    await expect(connect(url, {})).rejects.toThrow(/401|Unauthorized/);
    expect(await post(url, { Authorization: `Bearer ${token}` })).toBe(200);
    expect(ollama.chatRequests).toHaveLength(0);
  });

  it('DNS rebinding: a request by another host name is refused (403), even with the token', async () => {
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

  it('says in one line when the port is taken, and exits 1', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const result = await runCli(['mcp-server', '--http', String(port)], {
      cwd: workDir,
      env: mcpServerEnv(ollama.url, workDir),
    });
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: port ${port} is in use\nPick another with --http <port>, or --http 0 for any free one.\n`,
    });
  });

  it('refuses --token without --http (exit 2): a stdio server has no one to show it to', async () => {
    const result = await runCli(['mcp-server', '--token', 'abc'], {
      cwd: workDir,
      env: mcpServerEnv(ollama.url, workDir),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --token is for --http: a stdio server is reached only by the process that started it\n',
    );
  });
});
