/**
 * `mcp-chat acp` end to end: the SDK's own client side (its `client()` app, which replaced
 * `ClientSideConnection` in SDK 2) drives the built CLI over real stdio, against the fake Ollama and
 * our real servers over stdio with the shipped config.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServer, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv } from '../helpers/run-cli.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';
import { chunkText, startAcp, type AcpChild, type PermissionAnswer } from '../helpers/acp-client.js';
import { descendants, isProcessAlive, REPO_ROOT } from '../helpers/server-configs.js';
import { runCli } from '../helpers/run-cli.js';

const textCall = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });
const FILE_SERVER = path.join(REPO_ROOT, 'dist/servers/file/main.js');
const HOSTILE_SERVER = path.join(REPO_ROOT, 'test/fixtures/servers/hostile-server.mjs');
const WRITE = textCall('file', 'write_file', { path: 'out.txt', content: 'hello' });

const select = (optionId: string): Promise<RequestPermissionResponse> =>
  Promise.resolve({ outcome: { outcome: 'selected', optionId } });

let workDir: string;
let ollama: FakeOllama;
let agents: AcpChild[];

beforeEach(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-acp-')));
  ollama = await startFakeOllama({ models: TEXT_MODEL });
  agents = [];
});
afterEach(async () => {
  for (const agent of agents) {
    agent.child.stdin.end();
    await agent.exited;
  }
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function stateEnv(): Record<string, string> {
  return cleanEnv({
    HOME: workDir,
    OLLAMA_HOST: ollama.url,
    XDG_STATE_HOME: path.join(workDir, 'state'),
    MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
  });
}

function start(answer: PermissionAnswer = () => select('deny')): AcpChild {
  const env = stateEnv();
  const agent = startAcp({ cwd: workDir, env, answer });
  agents.push(agent);
  return agent;
}

async function initialized(agent: AcpChild): Promise<void> {
  const init = await agent.connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  expect(init).toMatchObject({
    protocolVersion: 1,
    agentCapabilities: { loadSession: true, mcpCapabilities: { http: true } },
  });
}

async function newSession(agent: AcpChild, mcpServers: McpServer[] = []): Promise<string> {
  await initialized(agent);
  const session = await agent.connection.agent.request('session/new', { cwd: workDir, mcpServers });
  return session.sessionId;
}

const prompt = (agent: AcpChild, sessionId: string, text: string) =>
  agent.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });

/** Every line on stdout is a JSON-RPC message: nothing else may go there. */
function expectOnlyProtocol(agent: AcpChild): void {
  for (const line of agent.stdoutLines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
}

describe('mcp-chat acp', () => {
  it('runs a tool turn whose permission request the editor allows, streaming the call with our id', async () => {
    const agent = start(() => select('once'));
    const sessionId = await newSession(agent);
    ollama.script(WRITE, 'I wrote the file.');
    const result = await prompt(agent, sessionId, 'Write hello to out.txt');
    expect(result.stopReason).toBe('end_turn');
    expect(fs.readFileSync(path.join(workDir, 'out.txt'), 'utf8')).toBe('hello');
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]).toMatchObject({
      sessionId,
      toolCall: { toolCallId: 'call_1', title: 'file.write_file', rawInput: { path: 'out.txt', content: 'hello' } },
    });
    expect(agent.permissions[0]?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
    ]);
    const calls = agent.updates.map(({ update }) => update).filter((u) => u.sessionUpdate.startsWith('tool_call'));
    expect(calls.map((update) => 'status' in update && update.status)).toEqual(['pending', 'in_progress', 'completed']);
    expect(calls[0]).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 'call_1', status: 'pending' });
    expect(calls.at(-1)).toMatchObject({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_1',
      status: 'completed',
    });
    expect(chunkText(agent.updates, 'agent_message_chunk')).toBe('I wrote the file.');
    expectOnlyProtocol(agent);
  });

  const refusals: [string, PermissionAnswer][] = [
    ['rejects it', () => select('deny')],
    ['cancels the request', () => Promise.resolve({ outcome: { outcome: 'cancelled' } })],
  ];
  it.each(refusals)('denies the call when the editor %s, and tells the model', async (_how, answer) => {
    const agent = start(answer);
    const sessionId = await newSession(agent);
    ollama.script(WRITE, 'I was not allowed to write it.');
    const result = await prompt(agent, sessionId, 'Write hello to out.txt');
    expect(result.stopReason).toBe('end_turn');
    expect(agent.permissions).toHaveLength(1);
    expect(fs.existsSync(path.join(workDir, 'out.txt'))).toBe(false);
    const last = agent.updates.map(({ update }) => update).findLast((u) => u.sessionUpdate === 'tool_call_update');
    expect(last).toMatchObject({ toolCallId: 'call_1', status: 'failed' });
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain('did not approve');
  });

  it('stops a turn mid-stream on session/cancel, with stopReason cancelled', async () => {
    const agent = start();
    const sessionId = await newSession(agent);
    ollama.script({ text: 'The beginning of a long answer', hang: true });
    const running = prompt(agent, sessionId, 'Tell me a long story');
    await expect.poll(() => chunkText(agent.updates, 'agent_message_chunk'), CONDITION_WAIT).toContain('The beginning');
    await agent.connection.agent.notify('session/cancel', { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    await expect
      .poll(() => ollama.requests.some((r) => r.path === '/api/chat' && r.clientAborted), CONDITION_WAIT)
      .toBe(true);
    // The session goes on after a cancel.
    ollama.script('Still here.');
    expect((await prompt(agent, sessionId, 'Are you there?')).stopReason).toBe('end_turn');
  });

  it('loads a saved session in a later run, replaying it as updates and sending it to the model', async () => {
    const first = start();
    const sessionId = await newSession(first);
    ollama.script('Your name is Ada.');
    await prompt(first, sessionId, 'My name is Ada. What is my name?');
    first.child.stdin.end();
    expect(await first.exited).toBe(0);

    const second = start();
    await initialized(second);
    await second.connection.agent.request('session/load', { sessionId, cwd: workDir, mcpServers: [] });
    expect(chunkText(second.updates, 'user_message_chunk')).toBe('My name is Ada. What is my name?');
    expect(chunkText(second.updates, 'agent_message_chunk')).toBe('Your name is Ada.');
    ollama.script('Still Ada.');
    expect((await prompt(second, sessionId, 'And now?')).stopReason).toBe('end_turn');
    const contents = ollama.chatRequests[1]?.messages.map((message) => message.content);
    expect(contents).toEqual(
      expect.arrayContaining(['My name is Ada. What is my name?', 'Your name is Ada.', 'And now?']),
    );
  });

  it('answers a malformed message with a JSON-RPC error and keeps running', async () => {
    const agent = start();
    const sessionId = await newSession(agent);
    agent.child.stdin.write('{"jsonrpc":"2.0","id":901,"method":"session/prompt","params":{"prompt":"x"}}\n');
    agent.child.stdin.write('this is not json\n');
    await expect
      .poll(
        () => agent.stdoutLines().map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number } }),
        CONDITION_WAIT,
      )
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: 901, error: expect.objectContaining({ code: -32602 }) }),
          expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
        ]),
      );
    ollama.script('Fine, thanks.');
    expect((await prompt(agent, sessionId, 'How are you?')).stopReason).toBe('end_turn');
    expectOnlyProtocol(agent);
  });

  it("takes the editor's mcpServers, which win over a configured server of the same name", async () => {
    const elsewhere = path.join(workDir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'note.txt'), 'only the editor server sees this');
    const file = { name: 'file', command: 'node', args: [FILE_SERVER, elsewhere], env: [] };
    const agent = start();
    const sessionId = await newSession(agent, [file]);
    ollama.script(textCall('file', 'read_file', { path: 'note.txt' }), 'Read it.');
    expect((await prompt(agent, sessionId, 'Read note.txt')).stopReason).toBe('end_turn');
    const result = agent.updates.map(({ update }) => update).findLast((u) => u.sessionUpdate === 'tool_call_update');
    expect(result).toMatchObject({ status: 'completed' });
    expect(ollama.chatRequests[1]?.messages.at(-1)?.content).toContain('only the editor server sees this');
  });

  it("does not start an untrusted project's mcp_config.json servers for a session in that directory", async () => {
    const repo = path.join(workDir, 'cloned-repo');
    fs.mkdirSync(repo);
    const marker = path.join(repo, 'started');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`;
    fs.writeFileSync(
      path.join(repo, 'mcp_config.json'),
      JSON.stringify({ mcpServers: { repo: { command: 'node', args: ['-e', script] } } }),
    );
    const agent = start();
    await initialized(agent);
    const opening = agent.connection.agent.request('session/new', { cwd: repo, mcpServers: [] });
    await expect(opening).rejects.toThrow(/mcp-chat trust/);
    expect(fs.existsSync(marker)).toBe(false);
    // Once trusted, the same session/new uses the project's config.
    expect((await runCli(['trust'], { cwd: repo, env: stateEnv() })).code).toBe(0);
    await agent.connection.agent.request('session/new', { cwd: repo, mcpServers: [] });
    await expect.poll(() => fs.existsSync(marker), CONDITION_WAIT).toBe(true);
  });

  it("offers the servers' prompts as slash commands and shows a prompt's messages before the model gets them", async () => {
    const notes = { name: 'notes', command: 'node', args: [HOSTILE_SERVER], env: [] };
    const agent = start();
    const sessionId = await newSession(agent, [notes]);
    const commands = (): string[] =>
      agent.updates.flatMap(({ update }) =>
        update.sessionUpdate === 'available_commands_update' ? update.availableCommands.map((c) => c.name) : [],
      );
    await expect.poll(commands, CONDITION_WAIT).toContain('notes:summarise');
    ollama.script('Here is the summary.');
    expect((await prompt(agent, sessionId, '/notes:summarise')).stopReason).toBe('end_turn');
    expect(chunkText(agent.updates, 'user_message_chunk')).toContain('Summarise my notes.');
    expect(ollama.chatRequests[0]?.messages.map((m) => m.content)).toContain('Summarise my notes.');
  });

  it('offers the model and thinking level as config options, and streams the reasoning as thought chunks', async () => {
    ollama.setModels([...TEXT_MODEL, { name: 'qwen3', capabilities: ['completion', 'thinking'] }]);
    const agent = start();
    await initialized(agent);
    const session = await agent.connection.agent.request('session/new', { cwd: workDir, mcpServers: [] });
    expect(session.configOptions).toEqual([
      expect.objectContaining({ id: 'model', currentValue: 'llama3.2' }),
      expect.objectContaining({ id: 'thinking', currentValue: 'auto' }),
    ]);
    const { sessionId } = session;
    const set = (configId: string, value: string) =>
      agent.connection.agent.request('session/set_config_option', { sessionId, configId, value });
    await expect(set('model', 'no-such-model')).rejects.toThrow(/no-such-model/);
    await set('model', 'qwen3');
    const options = await set('thinking', 'high');
    expect(options.configOptions).toEqual([
      expect.objectContaining({ currentValue: 'qwen3' }),
      expect.objectContaining({ currentValue: 'high' }),
    ]);
    ollama.script({ thinking: 'Let me think.', text: 'Thought about it.' });
    expect((await prompt(agent, sessionId, 'Think, then answer')).stopReason).toBe('end_turn');
    expect(ollama.chatRequests[0]).toMatchObject({ model: 'qwen3', think: 'high' });
    expect(chunkText(agent.updates, 'agent_thought_chunk')).toBe('Let me think.');
    expect(chunkText(agent.updates, 'agent_message_chunk')).toBe('Thought about it.');
  });

  it('answers a failed turn with a JSON-RPC error that says what to do, and the session carries on', async () => {
    const agent = start();
    const sessionId = await newSession(agent);
    ollama.setModels([]);
    await expect(prompt(agent, sessionId, 'Hello?')).rejects.toThrow(/ollama pull llama3\.2/);
    ollama.setModels(TEXT_MODEL);
    ollama.script('Hello!');
    expect((await prompt(agent, sessionId, 'Hello?')).stopReason).toBe('end_turn');
    expect(agent.stderr()).toBe('');
  });

  it.each([
    { how: 'the editor closes stdin (exit 0)', end: (agent: AcpChild) => agent.child.stdin.end(), code: 0 },
    { how: 'on SIGTERM (exit 143)', end: (agent: AcpChild) => agent.child.kill('SIGTERM'), code: 143 },
  ])("stops every session's servers and exits: $how", async ({ end, code }) => {
    const agent = start();
    await newSession(agent);
    await newSession(agent);
    const servers = descendants(agent.child.pid as number);
    // Two sessions, each with the shipped config's three local servers.
    expect(servers.length).toBeGreaterThanOrEqual(6);
    end(agent);
    expect(await agent.exited).toBe(code);
    await expect.poll(() => servers.filter(isProcessAlive), CONDITION_WAIT).toEqual([]);
  });

  it('stops a session on session/close: its servers end, and a prompt to it is an error', async () => {
    const agent = start();
    const before = descendants(agent.child.pid as number);
    const sessionId = await newSession(agent);
    const servers = descendants(agent.child.pid as number).filter((pid) => !before.includes(pid));
    expect(servers.length).toBeGreaterThan(0);
    await agent.connection.agent.request('session/close', { sessionId });
    await expect.poll(() => servers.filter(isProcessAlive), CONDITION_WAIT).toEqual([]);
    await expect(prompt(agent, sessionId, 'Hello?')).rejects.toThrow(/not found/i);
  });

  it('says a server that failed to start at the head of the next turn, and the others work', async () => {
    const broken = { name: 'broken', command: path.join(workDir, 'no-such-server'), args: [], env: [] };
    const agent = start();
    const sessionId = await newSession(agent, [broken]);
    ollama.script(textCall('calculator', 'evaluate', { expression: '6*7' }), 'It is 42.');
    expect((await prompt(agent, sessionId, 'What is 6*7?')).stopReason).toBe('end_turn');
    expect(chunkText(agent.updates, 'agent_message_chunk')).toMatch(/^warning: broken: .+\n\nIt is 42\.$/s);
    ollama.script('Again.');
    await prompt(agent, sessionId, 'Once more');
    expect(chunkText(agent.updates, 'agent_message_chunk').match(/warning: broken/g)).toHaveLength(1);
  });
});
