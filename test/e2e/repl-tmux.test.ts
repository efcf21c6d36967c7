/**
 * The REPL as a person uses it: the real binary in a real terminal (tmux), the fake
 * Ollama, our real servers. Start, wait for "ready", run every built-in, ask a question
 * that uses a tool, cancel a slow reply, clear, quit — and nothing is left running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv } from '../helpers/run-cli.js';
import { descendants, isProcessAlive } from '../helpers/server-configs.js';
import { SCREEN_WAIT, TmuxPane } from '../helpers/tmux.js';

describe.skipIf(!TmuxPane.available())('the REPL in a terminal', () => {
  let ollama: FakeOllama;
  let workDir: string;
  const pane = new TmuxPane();

  const waitForScreen = (pattern: RegExp): Promise<void> =>
    vi.waitFor(() => expect(pane.screen()).toMatch(pattern), SCREEN_WAIT);

  beforeAll(async () => {
    ollama = await startFakeOllama({
      models: [
        { name: 'llama3.2', capabilities: ['completion'] },
        { name: 'qwen2.5', capabilities: ['completion'] },
      ],
    });
    workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-')));
    const env = cleanEnv({
      HOME: workDir,
      OLLAMA_HOST: ollama.url,
      TERM: 'xterm-256color',
      MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl'),
    });
    pane.start([process.execPath, CLI], { cwd: workDir, env });
  });

  afterAll(async () => {
    pane.kill();
    await ollama.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('starts and shows the servers coming up', async () => {
    await waitForScreen(/calculator ✓ 1.*file ✓ 5.*research ✓ 2.*ready/s);
    expect(pane.screen()).toContain('ollama ✓');
  });

  it('lists tools with the bare built-in command', async () => {
    pane.type('tools', 'Enter');
    await waitForScreen(/evaluate\(expression\)/);
    expect(pane.screen()).toContain('search_papers(topic, max_results?)');
  });

  it('runs the other built-ins: help, servers, model, debug', async () => {
    pane.type('help', 'Enter');
    await waitForScreen(/Commands \(bare or with a slash\):/);
    pane.type('/SERVERS', 'Enter');
    await waitForScreen(/research +ready, 2 tools, started in \d+ ms/);
    pane.type('model', 'Enter');
    await waitForScreen(/Model: llama3\.2/);
    pane.type('model no-such-model', 'Enter');
    await waitForScreen(/Pull it with `ollama pull no-such-model`/);
    // The offer to pull it takes an answer once it has been read: a line typed before would be kept aside.
    await waitForScreen(/pull\? y\/n ›/);
    pane.type('n', 'Enter');
    await waitForScreen(/no-such-model not pulled\./);
    pane.type('/model qwen2.5', 'Enter');
    await waitForScreen(/Model switched to qwen2\.5\./);
    pane.type('model llama3.2', 'Enter');
    await waitForScreen(/Model switched to llama3\.2\./);
    pane.type('debug', 'Enter');
    await waitForScreen(/Debug on: raw model replies/);
    ollama.script('A *plain* reply.');
    pane.type('Say something', 'Enter');
    await waitForScreen(/\[debug\] step 1, \d+ ms, raw reply:\s+A \*plain\* reply\./);
    pane.type('/Debug', 'Enter');
    await waitForScreen(/Debug off/);
    expect(ollama.chatRequests.at(-1)?.model).toBe('llama3.2');
  });

  it('answers a question that uses the calculator, with a tool line and the streamed answer', async () => {
    ollama.script(
      JSON.stringify({
        action: 'use_tool',
        server: 'calculator',
        tool: 'evaluate',
        arguments: { expression: '1234*5678' },
      }),
      'The answer is **7006652**.',
    );
    pane.type('What is 1234*5678?', 'Enter');
    await waitForScreen(/The answer is 7006652\./);
    const screen = pane.screen();
    expect(screen).toMatch(/✓ calculator\.evaluate\(expression="1234\*5678"\) \d+ ms → 7006652/);
    expect(screen).not.toContain('"action"');
  });

  it('cancels a slow reply with Ctrl+C and keeps the session', async () => {
    ollama.script({ text: ['This reply never finishes', ' and never ends.'], chunkDelayMs: 60_000 }, 'Still here.');
    pane.type('Tell me a long story', 'Enter');
    await waitForScreen(/This reply never/);
    pane.type('', 'C-c');
    await waitForScreen(/Cancelled\./);
    pane.type('Are you there?', 'Enter');
    await waitForScreen(/Still here\./);
  });

  it('cancels a slow reply with Esc too', async () => {
    ollama.script({ text: ['Another endless', ' reply.'], chunkDelayMs: 60_000 }, 'Back again.');
    pane.type('Another long story', 'Enter');
    await waitForScreen(/Another endless/);
    pane.type('', 'Escape');
    await waitForScreen(/Another endless\s+Cancelled\./);
    pane.type('Hello?', 'Enter');
    await waitForScreen(/Back again\./);
  });

  it("answers at the terminal's new width once it is resized", async () => {
    pane.resize(60, 40);
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`);
    ollama.script(`${words.join(' ')}.`);
    pane.type('Say forty words', 'Enter');
    await waitForScreen(/word39\./);
    const screen = pane.programLines();
    const answer = screen.slice(screen.lastIndexOf('› Say forty words') + 1);
    const lines = answer.slice(0, answer.findIndex((line) => line.includes('word39.')) + 1);
    // Wrapped by the REPL itself at the new 60 columns (not by the terminal), every word whole and in order.
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    expect(lines.join(' ').split(/\s+/).filter(Boolean)).toEqual([...words.slice(0, -1), 'word39.']);
    pane.resize(120, 40);
  });

  it('clears the screen and the conversation', async () => {
    pane.type('/clear', 'Enter');
    await vi.waitFor(() => expect(pane.screen()).not.toContain('7006652'), SCREEN_WAIT);
    // The status bar and the input line are drawn again at once, before anything is typed.
    await waitForScreen(/^llama3\.2 +ollama ✓ .*ready\n›/m);
    ollama.script('Fresh start.');
    pane.type('hello', 'Enter');
    await waitForScreen(/Fresh start\./);
    const lastRequest = ollama.chatRequests.at(-1);
    expect(lastRequest?.messages.map((m) => m.content)).not.toContain('What is 1234*5678?');
  });

  it('quits and leaves no child process behind', async () => {
    const children = descendants(pane.panePid());
    expect(children.length).toBeGreaterThanOrEqual(3);
    pane.type('quit', 'Enter');
    await vi.waitFor(() => expect(pane.exited()).toBe(true), SCREEN_WAIT);
    await vi.waitFor(() => expect(children.filter(isProcessAlive)).toEqual([]), SCREEN_WAIT);
    // The status bar and the input line are gone with the chat; the conversation stays.
    expect(pane.screen()).toContain('› quit');
    expect(pane.screen()).not.toMatch(/llama3\.2 {2}ollama ✓/);
  });
});
