/**
 * `mcp-chat serve` end to end: the built CLI on port 0, WebSocket clients over the real wire,
 * the fake Ollama, and the shipped servers over stdio. Each test reads the URL from the first
 * stdout line, as a user or a script does.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeOllama } from '../fakes/fake-ollama.js';
import { CONDITION_WAIT } from '../helpers/condition-wait.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { isProcessAlive, REPO_ROOT } from '../helpers/server-configs.js';
import {
  requestStatus,
  sessionIdOf,
  silentClient,
  startServe,
  upgradeStatus,
  WsClient,
  type ServeProcess,
} from '../helpers/serve-process.js';

const SCRIPTED = path.join(REPO_ROOT, 'test/fixtures/servers/scripted-server.mjs');

const textCall = (server: string, tool: string, args: Record<string, unknown>): string =>
  JSON.stringify({ action: 'use_tool', server, tool, arguments: args });

let workDir: string;
let ollama: FakeOllama;
const running: ServeProcess[] = [];
const clients: WsClient[] = [];

beforeAll(async () => {
  ollama = await startFakeOllama({ models: TEXT_MODEL });
});
afterAll(() => ollama.close());
beforeEach(() => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-serve-')));
});
afterEach(async () => {
  clients.splice(0).forEach((client) => client.close());
  await Promise.all(running.splice(0).map((serve) => serve.stop()));
  fs.rmSync(workDir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return cleanEnv({
    HOME: workDir,
    OLLAMA_HOST: ollama.url,
    XDG_STATE_HOME: path.join(workDir, 'state'),
    MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
  });
}

async function serve(args: string[] = []): Promise<ServeProcess> {
  const started = await startServe(args, env(), workDir);
  running.push(started);
  return started;
}

async function connect(server: ServeProcess, session?: string): Promise<WsClient> {
  const client = await WsClient.open(server, session === undefined ? {} : { session });
  clients.push(client);
  await client.waitFor((m) => m.type === 'history');
  return client;
}

function logLines(): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(workDir, 'log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('mcp-chat serve', () => {
  it('prints the URL with the token first, and keeps the token in a 0600 file', async () => {
    const server = await serve();
    expect(server.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
    const file = path.join(workDir, 'state', 'mcp-chat', 'serve-token');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(server.token);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('runs a tool turn: the approval asked and answered over the wire, the tool line completes, the answer streams', async () => {
    const server = await serve();
    const client = await connect(server);
    // A first turn lets the servers start, so the tool turn's log holds the turn's own lines.
    ollama.script('Ready.');
    client.send({ type: 'message', payload: { text: 'Are you there?' } });
    await client.turnOver();
    const from = client.received.length;
    ollama.script(textCall('file', 'write_file', { path: 'note.txt', content: 'hello' }), 'Wrote **note.txt**.');
    client.send({ type: 'message', payload: { text: 'Write hello to note.txt' } });
    const approval = await client.waitFor((m) => m.type === 'approval', from);
    expect(approval.payload).toMatchObject({ server: 'file', tool: 'write_file', arguments: { path: 'note.txt' } });
    // One turn at a time: a second message while this one waits is refused, not queued.
    client.send({ type: 'message', payload: { text: 'and another' } });
    expect((await client.waitFor((m) => m.type === 'error', from)).payload).toMatchObject({ kind: 'busy' });
    client.send({ type: 'answer', payload: { id: approval.payload?.id, decision: 'allow' } });
    const done = await client.waitFor(
      (m) => m.type === 'status' && m.payload?.tool === 'file.write_file' && m.payload.state === 'complete',
    );
    expect(done.payload?.data).toMatchObject({ isError: false });
    const over = await client.turnOver(from);
    expect(over.payload).toMatchObject({ message: 'answered', data: { answer: 'Wrote **note.txt**.' } });
    expect(client.text(from)).toBe('Wrote **note.txt**.');
    expect(fs.readFileSync(path.join(workDir, 'note.txt'), 'utf8')).toBe('hello');
    // Every log line of the turn carries its requestId and sessionId (a server's own stderr is the server's).
    await expect.poll(() => logLines().filter((line) => line.msg === 'turn ended').length, CONDITION_WAIT).toBe(2);
    const lines = logLines().filter((line) => line.stream !== 'stderr');
    const start = lines.findLastIndex((line) => line.msg === 'turn started');
    const turn = lines.slice(start, lines.findLastIndex((line) => line.msg === 'turn ended') + 1);
    expect(turn.length).toBeGreaterThan(4);
    const ids = { requestId: turn[0]?.requestId, sessionId: sessionIdOf(client) };
    expect(ids.requestId).toEqual(expect.any(String));
    for (const line of turn) expect(line).toMatchObject(ids);
  });

  it('sends the reply to every connection of a session, and history to one that joins later', async () => {
    const server = await serve();
    const first = await connect(server);
    const second = await connect(server, sessionIdOf(first));
    expect(sessionIdOf(second)).toBe(sessionIdOf(first));
    ollama.script('Four.');
    first.send({ type: 'message', payload: { text: 'What is 2+2?' } });
    await Promise.all([first.turnOver(), second.turnOver()]);
    expect(second.received.find((m) => m.type === 'message')?.payload).toEqual({ text: 'What is 2+2?' });
    expect(first.text()).toBe('Four.');
    expect(second.text()).toBe('Four.');
    const late = await connect(server, sessionIdOf(first));
    const history = late.received.find((m) => m.type === 'history');
    expect(history?.payload?.items).toEqual([
      { type: 'user', text: 'What is 2+2?' },
      { type: 'assistant', text: 'Four.' },
    ]);
  });

  it('resumes a session after a restart: its history, and its messages sent with the next request', async () => {
    const before = await serve();
    const client = await connect(before);
    ollama.script('Noted: your name is Ada.');
    client.send({ type: 'message', payload: { text: 'My name is Ada.' } });
    await client.turnOver();
    const id = sessionIdOf(client);
    expect(await before.stop()).toBe(0);
    const after = await serve();
    const again = await connect(after, id);
    expect(again.received.find((m) => m.type === 'history')?.payload?.items).toEqual([
      { type: 'user', text: 'My name is Ada.' },
      { type: 'assistant', text: 'Noted: your name is Ada.' },
    ]);
    ollama.script('Your name is Ada.');
    const from = again.received.length;
    again.send({ type: 'message', payload: { text: 'What is my name?' } });
    await again.turnOver(from);
    const sent = ollama.chatRequests.at(-1)?.messages.map((m) => m.content) ?? [];
    expect(sent).toEqual(expect.arrayContaining(['My name is Ada.', 'Noted: your name is Ada.', 'What is my name?']));
  });

  it('closes a connection silent past the heartbeat, and keeps the one that answers pings', async () => {
    const server = await serve(['--heartbeat', '0.5']);
    const answering = await connect(server);
    const silent = await silentClient(server);
    await silent.closed;
    expect(answering.socket.readyState).toBe(answering.socket.OPEN);
    ollama.script('Awake.');
    answering.send({ type: 'message', payload: { text: 'still there?' } });
    await answering.turnOver();
    expect(answering.text()).toBe('Awake.');
  });

  it('a silent peer does not hold the stop: it is dropped, and a page that answers is told the server is going away', async () => {
    const server = await serve();
    const answering = await connect(server);
    const closeCode = once(answering.socket, 'close').then(([code]) => Number(code));
    await silentClient(server);
    expect(await server.stop()).toBe(0);
    expect(await closeCode).toBe(1001);
    // Dropped by the server's own grace, not after the WebSocket library's 30 s wait for an answer.
    expect(logLines().map((line) => line.msg)).toContain(
      'stopping: a connection that did not answer its close was dropped',
    );
  });

  it('a server deaf to its stop does not hold serve: it is killed, serve exits 0, and nothing is left running', async () => {
    const started = path.join(workDir, 'started');
    fs.mkdirSync(started);
    const config = path.join(workDir, 'deaf.json');
    const deaf = {
      command: process.execPath,
      args: [SCRIPTED, 'name=deaf', 'deaf-to-stop', `rendezvous=${started}:1`],
    };
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { deaf } }));
    const server = await serve(['--config', config]);
    await connect(server);
    await expect.poll(() => fs.readdirSync(started).length, CONDITION_WAIT).toBe(1);
    const pid = Number(fs.readdirSync(started)[0]?.split('.')[1]);
    expect(await server.stop()).toBe(0);
    // Ended by the SDK's own escalation (end of input, SIGTERM, then SIGKILL), within the stop's limit.
    expect(server.stderr()).not.toContain('still under way');
    await expect.poll(() => isProcessAlive(pid), CONDITION_WAIT).toBe(false);
  });

  it('refuses an unknown session id with an error and a close', async () => {
    const server = await serve();
    const client = await WsClient.open(server, { session: 'no-such-session' });
    clients.push(client);
    const error = await client.waitFor((m) => m.type === 'error');
    expect(error.payload).toMatchObject({ kind: 'unknown-session' });
  });

  it('missing token: every route but /healthz, and the upgrade, answer 401', async () => {
    const server = await serve();
    const base = `http://${server.host}`;
    for (const route of ['/', '/sessions', '/page.js', '/nowhere'])
      expect((await fetch(`${base}${route}`)).status, route).toBe(401);
    expect((await fetch(`${base}/?token=wrong-${server.token}`)).status).toBe(401);
    expect(await upgradeStatus(server.host, '/ws', { origin: base })).toBe(401);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/sessions`, { headers: { authorization: `Bearer ${server.token}` } })).status).toBe(
      200,
    );
    const page = await fetch(`${base}/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/page.js?token=');
  });

  it("cross-site websocket: an upgrade whose Origin is another site's is refused, even with the token", async () => {
    const server = await serve();
    const ws = `/ws?token=${server.token}`;
    expect(await upgradeStatus(server.host, ws, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(server.host, ws, { origin: 'http://localhost.evil.example' })).toBe(403);
    expect(await upgradeStatus(server.host, ws, { origin: `http://${server.host}` })).toBe(101);
  });

  it('dns rebinding: a request addressed to another host name is refused, even with its own Origin and the token', async () => {
    const server = await serve();
    const port = server.url.port;
    const rebound = { host: `rebind.example:${port}`, origin: `http://rebind.example:${port}` };
    expect(await upgradeStatus(server.host, `/ws?token=${server.token}`, rebound)).toBe(403);
    expect(await requestStatus(server.host, `/?token=${server.token}`, { host: rebound.host })).toBe(403);
    expect(await requestStatus(server.host, '/healthz', { host: rebound.host })).toBe(403);
  });

  it('refuses an oversized or malformed message with an error, and the connection keeps working', async () => {
    const server = await serve();
    const client = await connect(server);
    const refusals = (): string[] =>
      client.received.filter((m) => m.type === 'error').map((m) => String(m.payload?.kind));
    client.send({ type: 'message', payload: { text: 'x'.repeat(70 * 1024) } });
    await client.waitFor((m) => m.type === 'error' && m.payload?.kind === 'too-large');
    client.send('not json');
    client.send({ type: 'message', payload: {} });
    client.send({ type: 'launch' });
    await client.waitFor(() => refusals().length === 4);
    expect(refusals()).toEqual(['too-large', 'malformed', 'malformed', 'malformed']);
    ollama.script('Still here.');
    client.send({ type: 'message', payload: { text: 'hello?' } });
    await client.turnOver();
    expect(client.text()).toBe('Still here.');
  });

  it('refuses to bind a non-loopback address without --token (exit 2, one line)', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { env: env(), cwd: workDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: binding 0\.0\.0\.0 makes the chat reachable from the network/);
  });
});
