/**
 * `mcp-chat mcp-server` end to end: a real SDK client drives the built CLI over stdio (and over
 * Streamable HTTP), the CLI runs our servers and asks the fake Ollama, as another agent would use it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';
import { connectMcpServer, type McpServerClientOptions } from '../helpers/mcp-server-client.js';
import { descendants, isProcessAlive } from '../helpers/server-configs.js';

const textCall = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

interface ChatContent {
  answer: string;
  toolCalls: { id: string; server: string; tool: string; isError: boolean; result: string }[];
  stats: { turns: number; requests: number; toolCalls: number };
}

let workDir: string;
let ollama: FakeOllama;
const clients: Client[] = [];

beforeEach(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-server-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function connect(options: Partial<McpServerClientOptions> = {}): Promise<Client> {
  const client = await connectMcpServer({ ollama: ollama.url, workDir, ...options });
  clients.push(client);
  return client;
}

async function chat(client: Client, prompt: string, session?: string): Promise<CallToolResult> {
  return (await client.callTool({
    name: 'chat',
    arguments: { prompt, ...(session ? { session } : {}) },
  })) as CallToolResult;
}

const contentOf = (result: CallToolResult): ChatContent => result.structuredContent as unknown as ChatContent;

describe('mcp-chat mcp-server over stdio', () => {
  it('lists the chat tool with its input and output schemas, and no other tool without --expose-tools', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['chat']);
    expect(tools[0]?.inputSchema).toMatchObject({ properties: { prompt: { type: 'string' } }, required: ['prompt'] });
    expect(tools[0]?.outputSchema?.required).toEqual(['answer', 'toolCalls', 'stats']);
  });

  it('answers a chat call with a tool call: text content, and structuredContent with answer, toolCalls and stats', async () => {
    ollama.script(textCall('calculator', 'evaluate', { expression: '1234*5678' }), 'The product is 7006652.');
    const client = await connect();
    const result = await chat(client, 'What is 1234*5678?');
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'The product is 7006652.' }]);
    const content = contentOf(result);
    expect(content.answer).toBe('The product is 7006652.');
    expect(content.toolCalls).toMatchObject([
      { id: 'call_1', server: 'calculator', tool: 'evaluate', isError: false, result: '7006652' },
    ]);
    expect(content.stats).toMatchObject({ turns: 1, requests: 2, toolCalls: 1 });
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain('7006652');
  });

  it('tells a caller that sent a progress token how the turn goes', async () => {
    ollama.script(textCall('calculator', 'evaluate', { expression: '6*7' }), 'It is 42.');
    const client = await connect();
    const heard: Progress[] = [];
    await client.callTool({ name: 'chat', arguments: { prompt: 'What is 6*7?' } }, undefined, {
      onprogress: (progress) => heard.push(progress),
    });
    // A call written as text JSON is not streamed as answer text: the first words heard are the call's.
    // The SDK's client runs notification handlers a microtask after it reads them but settles a result
    // at once, so the last progress is lost to it when it arrives in the same read as the result.
    const expected = ['calling calculator.evaluate', 'calculator.evaluate done', 'writing the answer'];
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(heard.map((progress) => progress.message)).toEqual(expected.slice(0, heard.length));
    expect(heard.map((progress) => progress.progress)).toEqual([1, 2, 3].slice(0, heard.length));
  });

  it("stops the turn when the caller cancels: Ollama's request is dropped, and the next call works", async () => {
    ollama.script({ text: ['Let me think', ' about it'], hang: true }, 'Back again.');
    const client = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: 'chat', arguments: { prompt: 'Take your time' } }, undefined, {
      signal: abort.signal,
      onprogress: () => abort.abort(),
    });
    await expect(call).rejects.toThrow(/abort/i);
    const [request] = await ollama.waitForRequests(1);
    await vi.waitFor(() => expect(request?.clientAborted).toBe(true), CONDITION_WAIT);
    expect(contentOf(await chat(client, 'Still there?')).answer).toBe('Back again.');
  });

  it('asks the caller by elicitation before a call that needs approval, and runs it when accepted', async () => {
    ollama.script(textCall('file', 'write_file', { path: 'out.txt', content: 'hello' }), 'Written.');
    const asked: string[] = [];
    const client = await connect({
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: {} };
      },
    });
    const content = contentOf(await chat(client, 'Write hello to out.txt'));
    expect(asked).toEqual(['Allow file.write_file to run with {"path":"out.txt","content":"hello"}?']);
    expect(content.toolCalls).toMatchObject([{ tool: 'write_file', isError: false }]);
    expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hello');
  });

  it('denies the call when the caller declines the elicitation, and tells the model', async () => {
    ollama.script(textCall('file', 'write_file', { path: 'out.txt', content: 'hello' }), 'I was not allowed.');
    const client = await connect({ elicit: () => ({ action: 'decline' }) });
    const content = contentOf(await chat(client, 'Write hello to out.txt'));
    expect(content.toolCalls).toMatchObject([{ tool: 'write_file', isError: true }]);
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain(
      'The user did not approve running file.write_file. It was not run.',
    );
  });

  it('silent approval: a call needing approval is denied when the caller cannot answer elicitation, never run', async () => {
    ollama.script(textCall('file', 'write_file', { path: 'out.txt', content: 'hello' }), 'I was not allowed.');
    const client = await connect();
    const content = contentOf(await chat(client, 'Write hello to out.txt'));
    expect(content.toolCalls).toMatchObject([{ tool: 'write_file', isError: true }]);
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
  });

  it('carries a saved conversation across calls with `session`, as ask --session does', async () => {
    ollama.script('Nice to meet you, Ada.', 'Your name is Ada.');
    const client = await connect();
    await chat(client, 'My name is Ada.', 'demo');
    expect(contentOf(await chat(client, 'What is my name?', 'demo')).answer).toBe('Your name is Ada.');
    const contents = ollama.chatRequests[1]?.messages.map((message) => message.content) ?? [];
    expect(contents).toEqual(expect.arrayContaining(['My name is Ada.', 'Nice to meet you, Ada.', 'What is my name?']));
  });

  it('path traversal: a session name "../escape" is a tool error in one line, and the model is not asked', async () => {
    const client = await connect();
    const result = await chat(client, 'Hello', '../escape');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'invalid session name "../escape": a session name may not contain ".."' },
    ]);
    expect(ollama.chatRequests).toHaveLength(0);
  });

  it('ends when the caller closes its end, leaving none of the servers it started', async () => {
    const client = await connectMcpServer({ ollama: ollama.url, workDir });
    const pid = (client.transport as StdioClientTransport).pid ?? 0;
    const started = descendants(pid);
    expect(started.length).toBeGreaterThanOrEqual(3);
    await client.close();
    await vi.waitFor(() => expect([pid, ...started].filter(isProcessAlive)).toEqual([]), CONDITION_WAIT);
  });
});

describe('mcp-chat mcp-server --expose-tools', () => {
  it("offers the servers' tools as server__tool and calls them", async () => {
    const client = await connect({ args: ['--expose-tools'] });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['chat', 'calculator__evaluate', 'file__write_file']));
    const result = await client.callTool({ name: 'calculator__evaluate', arguments: { expression: '6*7' } });
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: '42' }] });
  });

  it('silent approval: an exposed write is asked of the caller, and refused when it cannot be asked', async () => {
    const refused = await connect({ args: ['--expose-tools'] });
    const call = { name: 'file__write_file', arguments: { path: 'out.txt', content: 'hello' } };
    expect(await refused.callTool(call)).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'file.write_file needs approval and was not given it' }],
    });
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
    const approving = await connect({ args: ['--expose-tools'], elicit: () => ({ action: 'accept', content: {} }) });
    expect(await approving.callTool(call)).toMatchObject({ isError: false });
    expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hello');
  });
});
