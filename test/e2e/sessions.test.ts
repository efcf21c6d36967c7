/**
 * Saved sessions from the command line, end to end: the built binary, the fake Ollama and the
 * calculator over stdio. Two `ask --session demo` calls hold one dialogue (the second request
 * carries the first exchange, its tool call and result included); `sessions --json` lists it; a
 * damaged or newer session file is exit 1 with an error naming the file; a bad name is exit 2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const RUN_MS = 60_000;
const CALCULATOR = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');
const textCall = (expression: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'calculator', tool: 'evaluate', arguments: { expression } });

let workDir: string;
let stateHome: string;
let config: string;
let ollama: FakeOllama;

beforeAll(async () => {
  workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sessions-e2e-')));
  stateHome = path.join(workDir, 'state');
  config = path.join(workDir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { calculator: { command: 'node', args: [CALCULATOR] } } }));
  ollama = await startFakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion'] }] });
});
afterAll(async () => {
  await ollama.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const env = cleanEnv({
    HOME: workDir,
    XDG_STATE_HOME: stateHome,
    OLLAMA_HOST: ollama.url,
    MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
  });
  return runCli(['--config', config, ...args], { cwd: workDir, env, timeoutMs: RUN_MS });
}

const sessionFile = (name: string): string => path.join(stateHome, 'mcp-chat', 'sessions', `${name}.json`);
/** The messages of the chat requests that reached the model (not the model-load pings). */
const sent = () => ollama.chatRequests.filter((request) => request.messages.length > 0).map((r) => r.messages);

describe('ask --session', () => {
  it(
    'two asks hold one dialogue: the second request carries the first exchange, tool call and result included',
    async () => {
      ollama.script(textCall('6*7'), 'It is 42.');
      const first = await cli(['ask', '--session', 'demo', 'What is 6*7?']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('It is 42.\n');
      expect(fs.existsSync(sessionFile('demo'))).toBe(true);

      ollama.script('Doubled, it is 84.');
      const second = await cli(['ask', '--session', 'demo', 'And doubled?']);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('Doubled, it is 84.\n');
      const messages = sent().at(-1) ?? [];
      expect(messages[0]?.role).toBe('system');
      expect(messages.slice(1).map(({ role, content }) => ({ role, content }))).toEqual([
        { role: 'user', content: 'What is 6*7?' },
        { role: 'assistant', content: textCall('6*7') },
        { role: 'user', content: expect.stringContaining('42') },
        { role: 'assistant', content: 'It is 42.' },
        { role: 'user', content: 'And doubled?' },
      ]);
    },
    2 * RUN_MS,
  );

  it(
    'an ask without --session carries nothing over',
    async () => {
      ollama.script('Hello.');
      const result = await cli(['ask', 'Hi']);
      expect(result.code).toBe(0);
      expect(sent().at(-1)?.slice(1)).toEqual([{ role: 'user', content: 'Hi' }]);
    },
    RUN_MS,
  );

  it('sessions --json lists the session: name, model, turns, first line, dates', async () => {
    const result = await cli(['sessions', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'demo',
        model: 'llama3.2',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        turns: 2,
        title: 'What is 6*7?',
      },
    ]);
    // What `ask` showed is kept as the chat's screen, so a resumed chat shows these turns too.
    const saved = JSON.parse(fs.readFileSync(sessionFile('demo'), 'utf8')) as { screen: { type: string }[] };
    expect(saved.screen.map((item) => item.type)).toEqual(['user', 'tool', 'assistant', 'user', 'assistant']);
    const text = await cli(['sessions']);
    expect(text.stdout).toMatch(/demo .* llama3\.2 +2 turns +What is 6\*7\?/);
  });

  it(
    'a truncated session file is exit 1 with an error naming the file; nothing is asked of the model',
    async () => {
      const whole = fs.readFileSync(sessionFile('demo'), 'utf8');
      fs.writeFileSync(sessionFile('cut'), whole.slice(0, Math.floor(whole.length / 2)));
      const requests = ollama.chatRequests.length;
      const result = await cli(['ask', '--session', 'cut', 'Go on']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`error: session file ${sessionFile('cut')} is damaged`);
      expect(result.stdout).toBe('');
      expect(ollama.chatRequests.length).toBe(requests);
      // The damaged file is left as it was, for the user to look at.
      expect(fs.readFileSync(sessionFile('cut'), 'utf8')).toBe(whole.slice(0, Math.floor(whole.length / 2)));
      const list = await cli(['sessions', '--json']);
      expect(list.code).toBe(0);
      expect(list.stderr).toContain('cut.json is damaged');
      expect((JSON.parse(list.stdout) as { name: string }[]).map((s) => s.name)).toEqual(['demo']);
    },
    RUN_MS,
  );

  it(
    'a session file from a newer mcp-chat is exit 1, saying so',
    async () => {
      fs.writeFileSync(sessionFile('future'), JSON.stringify({ format: 99 }));
      const result = await cli(['ask', '--session', 'future', 'Go on']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`session file ${sessionFile('future')} was written by a newer mcp-chat`);
    },
    RUN_MS,
  );

  it('path traversal in a session name is bad usage (exit 2), and nothing is written outside', async () => {
    const result = await cli(['ask', '--session', '../../escaped', 'Hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid session name');
    expect(fs.existsSync(path.join(stateHome, 'escaped.json'))).toBe(false);
    expect(fs.existsSync(path.join(workDir, 'escaped.json'))).toBe(false);
  });
});
